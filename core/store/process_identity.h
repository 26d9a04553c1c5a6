#pragma once

#include <cstdint>
#include <string>

namespace ayar {

// Who writes a run: enough to tell later whether that process still lives.
std::int64_t currentProcessId();
std::string currentHostName();

// True when a process with this id exists on this host (a zombie counts as alive until reaped).
bool processAlive(std::int64_t pid);

// Wall-clock seconds since the Unix epoch, as the store keeps times.
double unixTimeNowS();

// "2025-03-01T14:05:09Z": a stored time for people to read.
std::string formatUtcTime(double unixTimeS);

// A random (version 4) UUID in its usual text form.
std::string newUuid();

}  // namespace ayar
