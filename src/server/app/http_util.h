// Pure helpers for request targets: splitting paths, decoding %-escapes,
// query strings and the Bearer token. No sockets here.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace acedrex::server {

struct Target {
  std::vector<std::string> segments;  // decoded path segments, empty ones dropped
  std::map<std::string, std::string> query;
  std::string path;                   // decoded path
  bool ok = true;                     // false when an escape was malformed
};

Target parseTarget(std::string_view target);
// Decodes %XX (and '+' as space when form is true); false on a bad escape.
bool urlDecode(std::string_view in, std::string& out, bool form);
std::string urlEncode(std::string_view in);
// "Bearer abc" -> "abc"; anything else -> "".
std::string bearerToken(std::string_view authorization);

// Random identifiers from the operating system's generator (base62).
std::string randomToken(int length);

// What a request says about where it comes from (its headers).
struct RequestOrigin {
  std::string origin;        // the Origin header
  std::string secFetchSite;  // the Sec-Fetch-Site header
  std::string host;          // the Host header
};

}  // namespace acedrex::server
