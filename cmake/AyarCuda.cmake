# The CUDA backend of ayar-engine. AYAR_CUDA=AUTO builds it when nvcc is found, ON requires it, OFF
# leaves it out. Kernels are built for Hopper (sm_90a machine code, so wgmma-era instructions are
# allowed) with compute_90 PTX beside it, which the driver can compile for a later card.
#
# The CUDA runtime is linked statically: it opens the driver (libcuda) itself when a program first asks
# for a device, so ayar-engine starts, and runs --device cpu or sim, on a machine without a driver or a
# GPU. cuBLAS (which loads cuBLASLt) is opened with dlopen when a CUDA backend is made.
set(AYAR_CUDA AUTO CACHE STRING "Build the CUDA backend: AUTO (when nvcc is found), ON or OFF")
set_property(CACHE AYAR_CUDA PROPERTY STRINGS AUTO ON OFF)

set(AYAR_HAVE_CUDA OFF)
if(NOT AYAR_CUDA STREQUAL "OFF")
  include(CheckLanguage)
  if(NOT CMAKE_CUDA_COMPILER AND EXISTS /usr/local/cuda/bin/nvcc AND NOT DEFINED ENV{CUDACXX})
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
  endif()
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    # The architectures are given as -gencode flags below (the sm_90a form needs them).
    set(CMAKE_CUDA_ARCHITECTURES OFF)
    set(CMAKE_CUDA_RUNTIME_LIBRARY Static)
    enable_language(CUDA)
    find_package(CUDAToolkit REQUIRED)
    # CMake 3.25 does not know nvcc 13's C++20 flag; the project's targets ask for C++20 throughout.
    if(NOT CMAKE_CUDA20_STANDARD_COMPILE_OPTION)
      set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
      set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
    endif()
    set(AYAR_HAVE_CUDA ON)
    message(STATUS "Ayar: building the CUDA backend (nvcc ${CMAKE_CUDA_COMPILER_VERSION}, sm_90a + compute_90)")
  elseif(AYAR_CUDA STREQUAL "ON")
    message(FATAL_ERROR "AYAR_CUDA=ON but no CUDA compiler (nvcc) was found: install the CUDA Toolkit, set "
                        "CUDACXX to its nvcc, or configure with -DAYAR_CUDA=AUTO or OFF")
  else()
    message(STATUS "Ayar: nvcc not found, ayar-engine is built without its CUDA backend")
  endif()
endif()

# ayar_cuda_target_defaults(target): the architectures and warning flags of the CUDA sources.
function(ayar_cuda_target_defaults target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CUDA>:-gencode=arch=compute_90a,code=sm_90a -gencode=arch=compute_90,code=compute_90
      --expt-relaxed-constexpr -lineinfo -Xcompiler=-Wall,-Wextra>)
  if(AYAR_WERROR)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--Werror=all-warnings -Xcompiler=-Werror>)
  endif()
endfunction()
