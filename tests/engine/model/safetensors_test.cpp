#include "engine/model/safetensors.h"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "tests/support/test_env.h"

namespace ayar::engine {
namespace {

// A file exactly as given: 8-byte little-endian header length, header text, data bytes.
void writeRaw(const std::filesystem::path& path, const std::string& header, const std::string& data,
              std::uint64_t headerLength = 0) {
  if (headerLength == 0) headerLength = header.size();
  std::ofstream out(path, std::ios::binary);
  for (int i = 0; i < 8; ++i)
    out.put(static_cast<char>((headerLength >> (8 * i)) & 0xff));
  out << header << data;
}

std::string floatBytes(std::initializer_list<float> values) {
  std::string bytes(values.size() * 4, '\0');
  std::memcpy(bytes.data(), values.begin(), bytes.size());
  return bytes;
}

// The message of the ayar::Error that open() throws ("" when it does not throw).
std::string openError(const std::filesystem::path& path) {
  try {
    SafetensorsFile::open(path);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(Safetensors, ReadsF32AndBf16TensorsAndMetadataItWrote) {
  test::TempDir dir;
  const std::vector<float> matrix = {1.0f, -2.5f, 3.25f, 0.0f, 1e-3f, -7.0f};
  const std::vector<float> vector = {0.1f, 0.2f, 0.3f};
  const SafetensorsWriteTensor tensors[] = {{"m", SafetensorsDType::kF32, {2, 3}, matrix},
                                            {"v", SafetensorsDType::kBF16, {3}, vector}};
  writeSafetensors(dir / "a.safetensors", tensors, {{"format", "pt"}});

  const auto file = SafetensorsFile::open(dir / "a.safetensors");
  EXPECT_EQ(file->metadata().at("format"), "pt");
  ASSERT_EQ(file->tensors().size(), 2u);
  const SafetensorsTensor* m = file->find("m");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->dtype, SafetensorsDType::kF32);
  EXPECT_EQ(m->shape, (std::vector<std::int64_t>{2, 3}));
  std::vector<float> values(6);
  convertToFloat32(*m, values);
  EXPECT_EQ(values, matrix);

  const SafetensorsTensor* v = file->find("v");
  ASSERT_TRUE(v);
  EXPECT_EQ(v->dtype, SafetensorsDType::kBF16);
  EXPECT_EQ(v->bytes.size(), 6u);
  std::vector<float> bf16(3);
  convertToFloat32(*v, bf16);
  for (int i = 0; i < 3; ++i)
    EXPECT_NEAR(bf16[i], vector[i], vector[i] / 128) << i;  // 8 bits of mantissa
  EXPECT_FALSE(file->find("absent"));
}

TEST(Safetensors, ConvertsF16IncludingSubnormalsAndInfinity) {
  test::TempDir dir;
  // 1.0, -2.0, 65504 (max), smallest subnormal 2^-24, +inf.
  const std::uint16_t halves[] = {0x3c00, 0xc000, 0x7bff, 0x0001, 0x7c00};
  writeRaw(dir / "h.safetensors", R"({"h":{"dtype":"F16","shape":[5],"data_offsets":[0,10]}})",
           std::string(reinterpret_cast<const char*>(halves), sizeof(halves)));
  const auto file = SafetensorsFile::open(dir / "h.safetensors");
  std::vector<float> values(5);
  convertToFloat32(*file->find("h"), values);
  EXPECT_EQ(values[0], 1.0f);
  EXPECT_EQ(values[1], -2.0f);
  EXPECT_EQ(values[2], 65504.0f);
  EXPECT_EQ(values[3], std::ldexp(1.0f, -24));
  EXPECT_TRUE(std::isinf(values[4]));
}

// A tensor with no elements is valid: it opens and converts to nothing, with no copy from or into a
// null span (undefined behaviour that UBSan reports). Found by fuzz/safetensors.cpp.
TEST(Safetensors, ConvertsAnEmptyTensorToNothing) {
  test::TempDir dir;
  writeRaw(dir / "e.safetensors",
           R"({"empty":{"dtype":"F32","shape":[0,5],"data_offsets":[0,0]},)"
           R"("half":{"dtype":"F16","shape":[0],"data_offsets":[0,0]}})",
           "");
  const auto file = SafetensorsFile::open(dir / "e.safetensors");
  for (const char* name : {"empty", "half"}) {
    const SafetensorsTensor* tensor = file->find(name);
    ASSERT_TRUE(tensor) << name;
    EXPECT_EQ(tensor->elementCount(), 0) << name;
    EXPECT_TRUE(tensor->bytes.empty()) << name;
    std::vector<float> values;
    EXPECT_NO_THROW(convertToFloat32(*tensor, values)) << name;
    EXPECT_TRUE(values.empty()) << name;
  }
}

TEST(Safetensors, Bf16RoundsToNearestEven) {
  EXPECT_EQ(floatToBf16(1.0f), 0x3f80);
  EXPECT_EQ(bf16ToFloat(floatToBf16(3.140625f)), 3.140625f);  // representable exactly
  // 1 + 2^-8 lies halfway between 1 and 1 + 2^-7: ties go to the even mantissa (1.0).
  EXPECT_EQ(bf16ToFloat(floatToBf16(1.0f + std::ldexp(1.0f, -8))), 1.0f);
  EXPECT_TRUE(std::isnan(bf16ToFloat(floatToBf16(NAN))));
}

TEST(Safetensors, RefusesAFileShorterThanTheLengthField) {
  test::TempDir dir;
  std::ofstream(dir / "short.safetensors") << "abc";
  const std::string message = openError(dir / "short.safetensors");
  EXPECT_TRUE(contains(message, "short.safetensors")) << message;
  EXPECT_TRUE(contains(message, "truncated")) << message;
}

TEST(Safetensors, RefusesAHeaderLengthPastTheEndOfTheFile) {
  test::TempDir dir;
  writeRaw(dir / "len.safetensors", R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})",
           floatBytes({1.0f}), 1'000'000);
  const std::string message = openError(dir / "len.safetensors");
  EXPECT_TRUE(contains(message, "len.safetensors")) << message;
  EXPECT_TRUE(contains(message, "header length 1000000")) << message;
}

TEST(Safetensors, RefusesAHeaderThatIsNotJson) {
  test::TempDir dir;
  writeRaw(dir / "json.safetensors", "{\"a\": [", "");
  const std::string message = openError(dir / "json.safetensors");
  EXPECT_TRUE(contains(message, "json.safetensors")) << message;
  EXPECT_TRUE(contains(message, "JSON header")) << message;
}

TEST(Safetensors, RefusesATruncatedFileNamingTheTensorCut) {
  test::TempDir dir;
  const std::vector<float> values(64, 0.5f);
  const SafetensorsWriteTensor tensors[] = {{"first", SafetensorsDType::kF32, {64}, values},
                                            {"second", SafetensorsDType::kF32, {8, 8}, values}};
  writeSafetensors(dir / "cut.safetensors", tensors);
  std::filesystem::resize_file(dir / "cut.safetensors",
                               std::filesystem::file_size(dir / "cut.safetensors") - 10);
  const std::string message = openError(dir / "cut.safetensors");
  EXPECT_TRUE(contains(message, "cut.safetensors")) << message;
  EXPECT_TRUE(contains(message, "'second'")) << message;
  EXPECT_TRUE(contains(message, "truncated")) << message;
}

TEST(Safetensors, RefusesAnUnknownDtypeNamingTheTensor) {
  test::TempDir dir;
  writeRaw(dir / "dtype.safetensors", R"({"w":{"dtype":"Q4_K","shape":[2],"data_offsets":[0,8]}})",
           floatBytes({1.0f, 2.0f}));
  const std::string message = openError(dir / "dtype.safetensors");
  EXPECT_TRUE(contains(message, "'w'")) << message;
  EXPECT_TRUE(contains(message, "Q4_K")) << message;
}

TEST(Safetensors, ReadsButWillNotConvertAnIntegerTensor) {
  test::TempDir dir;
  writeRaw(dir / "int.safetensors", R"({"ids":{"dtype":"I32","shape":[2],"data_offsets":[0,8]}})",
           floatBytes({1.0f, 2.0f}));
  const auto file = SafetensorsFile::open(dir / "int.safetensors");
  std::vector<float> values(2);
  try {
    convertToFloat32(*file->find("ids"), values);
    FAIL() << "an I32 tensor converted to float";
  } catch (const Error& e) {
    EXPECT_TRUE(contains(e.what(), "'ids'")) << e.what();
    EXPECT_TRUE(contains(e.what(), "I32")) << e.what();
  }
}

TEST(Safetensors, RefusesAShapeThatDisagreesWithItsByteRange) {
  test::TempDir dir;
  writeRaw(dir / "shape.safetensors", R"({"w":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}})",
           floatBytes({1.0f, 2.0f}));
  const std::string message = openError(dir / "shape.safetensors");
  EXPECT_TRUE(contains(message, "'w'")) << message;
  EXPECT_TRUE(contains(message, "needs 12 bytes")) << message;
}

TEST(Safetensors, RefusesOverlappingTensors) {
  test::TempDir dir;
  writeRaw(
      dir / "overlap.safetensors",
      R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}})",
      floatBytes({1.0f, 2.0f, 3.0f}));
  const std::string message = openError(dir / "overlap.safetensors");
  EXPECT_TRUE(contains(message, "overlap")) << message;
  EXPECT_TRUE(contains(message, "'b'")) << message;
}

TEST(Safetensors, RefusesMalformedEntriesAndMetadata) {
  test::TempDir dir;
  const std::pair<const char*, const char*> cases[] = {
      {R"({"w":{"dtype":"F32","shape":[-1],"data_offsets":[0,4]}})", "non-integer or negative"},
      {R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[4,0]}})", "end before"},
      {R"({"w":{"dtype":"F32","shape":[1]}})", "data_offsets"},
      {R"({"w":{"shape":[1],"data_offsets":[0,4]}})", "dtype"},
      {R"({"__metadata__":{"format":1}})", "__metadata__"},
      {R"([1, 2])", "not an object"},
  };
  for (const auto& [header, expected] : cases) {
    writeRaw(dir / "bad.safetensors", header, floatBytes({1.0f}));
    const std::string message = openError(dir / "bad.safetensors");
    EXPECT_TRUE(contains(message, "bad.safetensors")) << header << " -> " << message;
    EXPECT_TRUE(contains(message, expected)) << header << " -> " << message;
  }
}

TEST(SafetensorsCheckpoint, FollowsTheShardIndex) {
  test::TempDir dir;
  const std::vector<float> a = {1, 2}, b = {3, 4, 5};
  const SafetensorsWriteTensor first[] = {{"a", SafetensorsDType::kF32, {2}, a}};
  const SafetensorsWriteTensor second[] = {{"b", SafetensorsDType::kBF16, {3}, b}};
  writeSafetensors(dir / "model-00001-of-00002.safetensors", first);
  writeSafetensors(dir / "model-00002-of-00002.safetensors", second);
  writeSafetensors(dir / "stray.safetensors", first);  // not in the index: never opened
  std::ofstream(dir / "model.safetensors.index.json")
      << R"({"metadata":{"total_size":14},"weight_map":{"a":"model-00001-of-00002.safetensors","b":"model-00002-of-00002.safetensors"}})";

  const SafetensorsCheckpoint checkpoint = SafetensorsCheckpoint::open(dir.path());
  EXPECT_EQ(checkpoint.files().size(), 2u);
  EXPECT_EQ(checkpoint.tensorCount(), 2u);
  ASSERT_TRUE(checkpoint.find("b"));
  EXPECT_EQ(checkpoint.find("b")->file.filename(), "model-00002-of-00002.safetensors");
  std::vector<float> values(3);
  convertToFloat32(*checkpoint.find("b"), values);
  EXPECT_EQ(values, b);
}

TEST(SafetensorsCheckpoint, RefusesAnIndexEntryTheShardDoesNotHold) {
  test::TempDir dir;
  const std::vector<float> a = {1, 2};
  const SafetensorsWriteTensor first[] = {{"a", SafetensorsDType::kF32, {2}, a}};
  writeSafetensors(dir / "one.safetensors", first);
  std::ofstream(dir / "model.safetensors.index.json")
      << R"({"weight_map":{"a":"one.safetensors","lost":"one.safetensors"}})";
  try {
    SafetensorsCheckpoint::open(dir.path());
    FAIL() << "an index naming a missing tensor was accepted";
  } catch (const Error& e) {
    EXPECT_TRUE(contains(e.what(), "'lost'")) << e.what();
    EXPECT_TRUE(contains(e.what(), "one.safetensors")) << e.what();
  }
}

TEST(SafetensorsCheckpoint, WithoutAnIndexReadsEveryShardAndRefusesDuplicates) {
  test::TempDir dir;
  const std::vector<float> a = {1, 2};
  const SafetensorsWriteTensor tensorA[] = {{"a", SafetensorsDType::kF32, {2}, a}};
  const SafetensorsWriteTensor tensorB[] = {{"b", SafetensorsDType::kF32, {2}, a}};
  writeSafetensors(dir / "x.safetensors", tensorA);
  writeSafetensors(dir / "y.safetensors", tensorB);
  EXPECT_EQ(SafetensorsCheckpoint::open(dir.path()).tensorCount(), 2u);

  writeSafetensors(dir / "z.safetensors", tensorA);
  try {
    SafetensorsCheckpoint::open(dir.path());
    FAIL() << "a tensor in two shards was accepted";
  } catch (const Error& e) {
    EXPECT_TRUE(contains(e.what(), "'a'")) << e.what();
  }
}

TEST(SafetensorsCheckpoint, RefusesAFolderWithoutWeights) {
  test::TempDir dir;
  try {
    SafetensorsCheckpoint::open(dir.path());
    FAIL() << "an empty folder was accepted";
  } catch (const Error& e) {
    EXPECT_TRUE(contains(e.what(), "--load-format dummy")) << e.what();
  }
  EXPECT_THROW(SafetensorsCheckpoint::open(dir / "absent"), Error);
}

}  // namespace
}  // namespace ayar::engine
