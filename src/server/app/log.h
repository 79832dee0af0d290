// The server's logs: leveled messages and an access log, one line each.
// spdlog stays behind this header (only log.cpp includes it).
//
// Threading contract: every function may be called from any thread.
// Nothing here is given a seat token: accessLine() takes the target with its
// `token` parameter already redacted by redactTarget().
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/base/result.h"

namespace acedrex::server::log {

enum class Level { kTrace, kDebug, kInfo, kWarn, kError, kOff };

// "trace", "debug", "info", "warn", "error", "off".
Result<Level> parseLevel(std::string_view name);

// Sends messages of `level` and above to stderr, and the access log to
// `accessLog`: "-" for stderr, "off" for none, else a file (appended to).
Status setup(Level level, const std::string& accessLog);

void debug(const std::string& message);
void info(const std::string& message);
void warn(const std::string& message);
void error(const std::string& message);

// One request: client address, method, target, status, bytes sent, time taken.
void access(std::string_view client, std::string_view method, std::string_view target, int status,
            uint64_t bytes, double ms);

// The target with every `token=` query value (the key read as the API reads
// it, %-escapes decoded) replaced by "***" and every
// byte outside printable ASCII written as %XX, so a log line never carries a
// seat token or a control character.
std::string redactTarget(std::string_view target);

}  // namespace acedrex::server::log
