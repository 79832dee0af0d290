#include "server/app/log.h"

#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <memory>
#include <mutex>

#include "server/app/http_util.h"

namespace acedrex::server::log {
namespace {

std::mutex setupM;

std::shared_ptr<spdlog::logger> makeStderr(const std::string& name) {
  auto logger = std::make_shared<spdlog::logger>(name, std::make_shared<spdlog::sinks::stderr_sink_mt>());
  logger->set_pattern("%Y-%m-%dT%H:%M:%S.%e %l %v");
  return logger;
}

// Made on first use, so tests that never call setup() still log warnings.
std::shared_ptr<spdlog::logger>& mainLogger() {
  static std::shared_ptr<spdlog::logger> logger = [] {
    auto l = makeStderr("acedrex");
    l->set_level(spdlog::level::info);
    return l;
  }();
  return logger;
}

std::shared_ptr<spdlog::logger>& accessLogger() {
  static std::shared_ptr<spdlog::logger> logger;  // null: off (the default until setup())
  return logger;
}

spdlog::level::level_enum toSpd(Level l) {
  switch (l) {
    case Level::kTrace: return spdlog::level::trace;
    case Level::kDebug: return spdlog::level::debug;
    case Level::kInfo: return spdlog::level::info;
    case Level::kWarn: return spdlog::level::warn;
    case Level::kError: return spdlog::level::err;
    case Level::kOff: return spdlog::level::off;
  }
  return spdlog::level::info;
}

void put(spdlog::level::level_enum level, const std::string& message) {
  std::shared_ptr<spdlog::logger> l;
  {
    std::lock_guard lock(setupM);
    l = mainLogger();
  }
  l->log(level, "{}", message);
}

}  // namespace

Result<Level> parseLevel(std::string_view name) {
  if (name == "trace") return Level::kTrace;
  if (name == "debug") return Level::kDebug;
  if (name == "info") return Level::kInfo;
  if (name == "warn") return Level::kWarn;
  if (name == "error") return Level::kError;
  if (name == "off") return Level::kOff;
  return makeError("log", "a log level is trace, debug, info, warn, error or off");
}

Status setup(Level level, const std::string& accessLog) {
  std::shared_ptr<spdlog::logger> access;
  if (accessLog == "-") {
    access = makeStderr("access");
  } else if (accessLog != "off" && !accessLog.empty()) {
    try {
      access = std::make_shared<spdlog::logger>(
          "access", std::make_shared<spdlog::sinks::basic_file_sink_mt>(accessLog, false));
      access->set_pattern("%Y-%m-%dT%H:%M:%S.%e %v");
      access->flush_on(spdlog::level::info);
    } catch (const std::exception& ex) {
      return makeError("log", "cannot open the access log \"" + accessLog + "\": " + ex.what());
    }
  }
  if (access) access->set_level(spdlog::level::info);
  std::lock_guard lock(setupM);
  mainLogger()->set_level(toSpd(level));
  accessLogger() = access;
  return okStatus();
}

void debug(const std::string& message) { put(spdlog::level::debug, message); }
void info(const std::string& message) { put(spdlog::level::info, message); }
void warn(const std::string& message) { put(spdlog::level::warn, message); }
void error(const std::string& message) { put(spdlog::level::err, message); }

void access(std::string_view client, std::string_view method, std::string_view target, int status, uint64_t bytes,
            double ms) {
  std::shared_ptr<spdlog::logger> l;
  {
    std::lock_guard lock(setupM);
    l = accessLogger();
  }
  if (!l) return;
  l->info("{} {} {} {} {} {:.1f}ms", redactTarget(client), redactTarget(method), redactTarget(target), status, bytes,
          ms);
}

std::string redactTarget(std::string_view target) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  out.reserve(std::min<size_t>(target.size(), 512) + 16);
  const size_t q = target.find('?');
  auto emit = [&](std::string_view s) {
    for (const char ch : s) {
      if (out.size() >= 512) return;
      const auto c = static_cast<unsigned char>(ch);
      if (c < 0x21 || c > 0x7e) {
        out += '%';
        out += hex[c >> 4];
        out += hex[c & 15];
      } else {
        out += ch;
      }
    }
  };
  emit(target.substr(0, q));
  if (q != std::string_view::npos) {
    out += '?';
    std::string_view qs = target.substr(q + 1);
    bool first = true;
    while (true) {
      const size_t amp = qs.find('&');
      const std::string_view pair = qs.substr(0, amp);
      if (!first) out += '&';
      first = false;
      const size_t eq = pair.find('=');
      const std::string_view key = pair.substr(0, eq);
      // The key as the API reads it (%-escapes and '+' decoded: "tok%65n" is
      // "token"); a key that does not decode is redacted too.
      std::string decoded;
      const bool plain = urlDecode(key, decoded, true);
      if (eq != std::string_view::npos && (!plain || decoded == "token" || decoded == "access_token")) {
        emit(key);
        out += "=***";
      } else {
        emit(pair);
      }
      if (amp == std::string_view::npos) break;
      qs.remove_prefix(amp + 1);
    }
  }
  if (out.size() >= 512) out += "...";
  return out;
}

}  // namespace acedrex::server::log
