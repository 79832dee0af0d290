#include "server/app/http_util.h"

#include <cctype>
#include <mutex>
#include <random>

namespace acedrex::server {

namespace {
int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
}  // namespace

bool urlDecode(std::string_view in, std::string& out, bool form) {
  out.clear();
  out.reserve(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    const char c = in[i];
    if (c == '%') {
      if (i + 2 >= in.size()) return false;
      const int h = hexValue(in[i + 1]), l = hexValue(in[i + 2]);
      if (h < 0 || l < 0) return false;
      out += static_cast<char>(h * 16 + l);
      i += 2;
    } else if (c == '+' && form) {
      out += ' ';
    } else {
      out += c;
    }
  }
  return true;
}

std::string urlEncode(std::string_view in) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (const char ch : in) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
        c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

Target parseTarget(std::string_view target) {
  Target t;
  const size_t q = target.find('?');
  const std::string_view path = target.substr(0, q);
  if (!urlDecode(path, t.path, false)) t.ok = false;
  size_t i = 0;
  while (i <= path.size()) {
    size_t j = path.find('/', i);
    if (j == std::string_view::npos) j = path.size();
    if (j > i) {
      std::string seg;
      if (!urlDecode(path.substr(i, j - i), seg, false)) t.ok = false;
      t.segments.push_back(std::move(seg));
    }
    i = j + 1;
  }
  if (q != std::string_view::npos) {
    const std::string_view qs = target.substr(q + 1);
    size_t a = 0;
    while (a <= qs.size()) {
      size_t b = qs.find('&', a);
      if (b == std::string_view::npos) b = qs.size();
      const std::string_view pair = qs.substr(a, b - a);
      if (!pair.empty()) {
        const size_t eq = pair.find('=');
        std::string k, v;
        if (!urlDecode(pair.substr(0, eq), k, true)) t.ok = false;
        if (eq != std::string_view::npos && !urlDecode(pair.substr(eq + 1), v, true)) t.ok = false;
        t.query.emplace(std::move(k), std::move(v));
      }
      a = b + 1;
    }
  }
  return t;
}

std::string bearerToken(std::string_view a) {
  constexpr std::string_view kPrefix = "Bearer ";
  if (a.size() <= kPrefix.size()) return {};
  for (size_t i = 0; i < kPrefix.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(kPrefix[i])))
      return {};
  std::string_view t = a.substr(kPrefix.size());
  while (!t.empty() && t.front() == ' ') t.remove_prefix(1);
  while (!t.empty() && t.back() == ' ') t.remove_suffix(1);
  return std::string(t);
}

std::string randomToken(int length) {
  static const char* alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  static std::mutex m;
  static std::random_device rd;  // the OS generator (getrandom) on Linux
  std::lock_guard lock(m);
  std::string out;
  out.reserve(static_cast<size_t>(length));
  while (static_cast<int>(out.size()) < length) {
    const unsigned v = rd();
    // 62 * 69273666 = 4294967292: reject the top few values to stay uniform.
    if (v >= 4294967292u) continue;
    out += alphabet[v % 62];
  }
  return out;
}

}  // namespace acedrex::server
