#include "server/app/json.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace acedrex::server {

Json Json::boolean(bool b) {
  Json j;
  j.kind_ = Kind::kBool;
  j.b_ = b;
  return j;
}
Json Json::number(double d) {
  Json j;
  j.kind_ = Kind::kNumber;
  j.d_ = d;
  return j;
}
Json Json::string(std::string s) {
  Json j;
  j.kind_ = Kind::kString;
  j.s_ = std::move(s);
  return j;
}
Json Json::array() {
  Json j;
  j.kind_ = Kind::kArray;
  return j;
}
Json Json::object() {
  Json j;
  j.kind_ = Kind::kObject;
  return j;
}

const Json* Json::get(std::string_view key) const {
  if (kind_ != Kind::kObject) return nullptr;
  for (const auto& [k, v] : o_)
    if (k == key) return &v;
  return nullptr;
}

bool Json::isInteger(double lo, double hi) const {
  return kind_ == Kind::kNumber && std::isfinite(d_) && d_ == std::floor(d_) && d_ >= lo && d_ <= hi;
}

void Json::set(std::string key, Json v) {
  for (auto& [k, old] : o_)
    if (k == key) {
      old = std::move(v);
      return;
    }
  o_.emplace_back(std::move(key), std::move(v));
}

namespace {

class Parser {
 public:
  Parser(std::string_view t, int maxDepth) : t_(t), maxDepth_(maxDepth) {}

  Result<Json> parseAll() {
    Json v;
    if (!value(v, 0)) return err();
    ws();
    if (i_ != t_.size()) {
      msg_ = "unexpected text after the JSON value";
      return err();
    }
    return v;
  }

 private:
  Error err() const {
    return makeError("json", msg_.empty() ? "malformed JSON" : msg_, "column " + std::to_string(i_ + 1));
  }
  bool fail(const char* m) {
    if (msg_.empty()) msg_ = m;
    return false;
  }
  void ws() {
    while (i_ < t_.size() && (t_[i_] == ' ' || t_[i_] == '\t' || t_[i_] == '\n' || t_[i_] == '\r')) ++i_;
  }
  bool lit(std::string_view w) {
    if (t_.substr(i_, w.size()) != w) return fail("unknown literal");
    i_ += w.size();
    return true;
  }
  bool value(Json& out, int depth) {
    ws();
    if (i_ >= t_.size()) return fail("unexpected end of input");
    const char c = t_[i_];
    if (c == '{') return object(out, depth + 1);
    if (c == '[') return array(out, depth + 1);
    if (c == '"') {
      std::string s;
      if (!str(s)) return false;
      out = Json::string(std::move(s));
      return true;
    }
    if (c == 't') {
      if (!lit("true")) return false;
      out = Json::boolean(true);
      return true;
    }
    if (c == 'f') {
      if (!lit("false")) return false;
      out = Json::boolean(false);
      return true;
    }
    if (c == 'n') {
      if (!lit("null")) return false;
      out = Json();
      return true;
    }
    if (c == '-' || (c >= '0' && c <= '9')) return num(out);
    return fail("unexpected character");
  }
  bool object(Json& out, int depth) {
    if (depth > maxDepth_) return fail("nested too deeply");
    ++i_;
    out = Json::object();
    ws();
    if (i_ < t_.size() && t_[i_] == '}') {
      ++i_;
      return true;
    }
    for (;;) {
      ws();
      if (i_ >= t_.size() || t_[i_] != '"') return fail("expected a string key");
      std::string k;
      if (!str(k)) return false;
      ws();
      if (i_ >= t_.size() || t_[i_] != ':') return fail("expected ':'");
      ++i_;
      Json v;
      if (!value(v, depth)) return false;
      out.add(std::move(k), std::move(v));
      ws();
      if (i_ >= t_.size()) return fail("unexpected end of input");
      if (t_[i_] == ',') {
        ++i_;
        continue;
      }
      if (t_[i_] == '}') {
        ++i_;
        return true;
      }
      return fail("expected ',' or '}'");
    }
  }
  bool array(Json& out, int depth) {
    if (depth > maxDepth_) return fail("nested too deeply");
    ++i_;
    out = Json::array();
    ws();
    if (i_ < t_.size() && t_[i_] == ']') {
      ++i_;
      return true;
    }
    for (;;) {
      Json v;
      if (!value(v, depth)) return false;
      out.push(std::move(v));
      ws();
      if (i_ >= t_.size()) return fail("unexpected end of input");
      if (t_[i_] == ',') {
        ++i_;
        continue;
      }
      if (t_[i_] == ']') {
        ++i_;
        return true;
      }
      return fail("expected ',' or ']'");
    }
  }
  static int hex(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }
  bool hex4(unsigned& u) {
    if (i_ + 4 > t_.size()) return fail("bad \\u escape");
    u = 0;
    for (int k = 0; k < 4; ++k) {
      const int h = hex(t_[i_ + k]);
      if (h < 0) return fail("bad \\u escape");
      u = u * 16 + static_cast<unsigned>(h);
    }
    i_ += 4;
    return true;
  }
  static void utf8(std::string& s, unsigned cp) {
    if (cp < 0x80) {
      s += static_cast<char>(cp);
    } else if (cp < 0x800) {
      s += static_cast<char>(0xC0 | (cp >> 6));
      s += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      s += static_cast<char>(0xE0 | (cp >> 12));
      s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      s += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      s += static_cast<char>(0xF0 | (cp >> 18));
      s += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      s += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }
  bool str(std::string& s) {
    ++i_;  // opening quote
    for (;;) {
      if (i_ >= t_.size()) return fail("unterminated string");
      const unsigned char c = static_cast<unsigned char>(t_[i_++]);
      if (c == '"') return true;
      if (c < 0x20) return fail("control character in a string");
      if (c >= 0x80) {
        const size_t n = utf8SequenceAt(t_, i_ - 1);
        if (n == 0) return fail("invalid UTF-8 in a string");
        s.append(t_.substr(i_ - 1, n));
        i_ += n - 1;
        continue;
      }
      if (c != '\\') {
        s += static_cast<char>(c);
        continue;
      }
      if (i_ >= t_.size()) return fail("unterminated string");
      const char e = t_[i_++];
      switch (e) {
        case '"': s += '"'; break;
        case '\\': s += '\\'; break;
        case '/': s += '/'; break;
        case 'b': s += '\b'; break;
        case 'f': s += '\f'; break;
        case 'n': s += '\n'; break;
        case 'r': s += '\r'; break;
        case 't': s += '\t'; break;
        case 'u': {
          unsigned u;
          if (!hex4(u)) return false;
          if (u >= 0xD800 && u <= 0xDBFF) {
            unsigned lo;
            if (i_ + 2 > t_.size() || t_[i_] != '\\' || t_[i_ + 1] != 'u') return fail("lone surrogate");
            i_ += 2;
            if (!hex4(lo)) return false;
            if (lo < 0xDC00 || lo > 0xDFFF) return fail("lone surrogate");
            u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
          } else if (u >= 0xDC00 && u <= 0xDFFF) {
            return fail("lone surrogate");
          }
          utf8(s, u);
          break;
        }
        default:
          return fail("bad escape");
      }
    }
  }
  bool num(Json& out) {
    const size_t start = i_;
    if (t_[i_] == '-') ++i_;
    auto digits = [&]() {
      const size_t b = i_;
      while (i_ < t_.size() && t_[i_] >= '0' && t_[i_] <= '9') ++i_;
      return i_ - b;
    };
    if (i_ >= t_.size()) return fail("bad number");
    if (t_[i_] == '0') {
      ++i_;
    } else if (digits() == 0) {
      return fail("bad number");
    }
    if (i_ < t_.size() && t_[i_] == '.') {
      ++i_;
      if (digits() == 0) return fail("bad number");
    }
    if (i_ < t_.size() && (t_[i_] == 'e' || t_[i_] == 'E')) {
      ++i_;
      if (i_ < t_.size() && (t_[i_] == '+' || t_[i_] == '-')) ++i_;
      if (digits() == 0) return fail("bad number");
    }
    if (i_ - start > 64) return fail("number too long");
    const std::string text(t_.substr(start, i_ - start));
    out = Json::number(std::strtod(text.c_str(), nullptr));
    return true;
  }

  std::string_view t_;
  size_t i_ = 0;
  int maxDepth_;
  std::string msg_;
};

}  // namespace

Result<Json> parseJson(std::string_view text, int maxDepth) { return Parser(text, maxDepth).parseAll(); }

size_t utf8SequenceAt(std::string_view s, size_t i) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = byte(i);
  if (c < 0x80) return 1;
  size_t n;
  unsigned char lo = 0x80, hi = 0xBF;  // the allowed range of the second byte
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    if (c == 0xE0) lo = 0xA0;  // overlong
    if (c == 0xED) hi = 0x9F;  // surrogates
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    if (c == 0xF0) lo = 0x90;  // overlong
    if (c == 0xF4) hi = 0x8F;  // above U+10FFFF
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (size_t k = 2; k < n; ++k)
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  return n;
}

bool isValidUtf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    const size_t n = utf8SequenceAt(s, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

void appendQuoted(std::string& out, std::string_view s) {
  out += '"';
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      const size_t n = utf8SequenceAt(s, i);
      if (n == 0) {
        out += "\xEF\xBF\xBD";  // U+FFFD for a byte outside any well-formed sequence
        ++i;
      } else if (n == 3 && c == 0xE2 && s[i + 1] == '\x80' && (s[i + 2] == '\xA8' || s[i + 2] == '\xA9')) {
        out += s[i + 2] == '\xA8' ? "\\u2028" : "\\u2029";  // line separators break JavaScript string literals
        i += n;
      } else {
        out.append(s.substr(i, n));
        i += n;
      }
      continue;
    }
    ++i;
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20 || c == 0x7F) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  out += '"';
}

std::string jsonQuote(std::string_view s) {
  std::string out;
  appendQuoted(out, s);
  return out;
}

void JsonWriter::comma() {
  if (afterKey_) {
    afterKey_ = false;
    return;
  }
  if (!first_.empty()) {
    if (!first_.back()) out_ += ',';
    first_.back() = false;
  }
}
JsonWriter& JsonWriter::beginObject() {
  comma();
  out_ += '{';
  first_.push_back(true);
  return *this;
}
JsonWriter& JsonWriter::endObject() {
  out_ += '}';
  first_.pop_back();
  return *this;
}
JsonWriter& JsonWriter::beginArray() {
  comma();
  out_ += '[';
  first_.push_back(true);
  return *this;
}
JsonWriter& JsonWriter::endArray() {
  out_ += ']';
  first_.pop_back();
  return *this;
}
JsonWriter& JsonWriter::key(std::string_view k) {
  comma();
  appendQuoted(out_, k);
  out_ += ':';
  afterKey_ = true;
  return *this;
}
JsonWriter& JsonWriter::value(std::string_view s) {
  comma();
  appendQuoted(out_, s);
  return *this;
}
JsonWriter& JsonWriter::value(int64_t n) {
  comma();
  out_ += std::to_string(n);
  return *this;
}
JsonWriter& JsonWriter::value(uint64_t n) {
  comma();
  out_ += std::to_string(n);
  return *this;
}
JsonWriter& JsonWriter::value(bool b) {
  comma();
  out_ += b ? "true" : "false";
  return *this;
}
JsonWriter& JsonWriter::null() {
  comma();
  out_ += "null";
  return *this;
}
JsonWriter& JsonWriter::raw(std::string_view json) {
  comma();
  out_ += json;
  return *this;
}

namespace {
void write(std::string& out, const Json& v) {
  switch (v.kind()) {
    case Json::Kind::kNull: out += "null"; break;
    case Json::Kind::kBool: out += v.asBool() ? "true" : "false"; break;
    case Json::Kind::kNumber: {
      const double d = v.asNumber();
      if (!std::isfinite(d)) {
        out += "null";
      } else if (d == std::floor(d) && std::fabs(d) < 9e15) {
        out += std::to_string(static_cast<int64_t>(d));
      } else {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.17g", d);
        out += buf;
      }
      break;
    }
    case Json::Kind::kString: appendQuoted(out, v.asString()); break;
    case Json::Kind::kArray: {
      out += '[';
      bool first = true;
      for (const auto& x : v.items()) {
        if (!first) out += ',';
        first = false;
        write(out, x);
      }
      out += ']';
      break;
    }
    case Json::Kind::kObject: {
      out += '{';
      bool first = true;
      for (const auto& [k, x] : v.members()) {
        if (!first) out += ',';
        first = false;
        appendQuoted(out, k);
        out += ':';
        write(out, x);
      }
      out += '}';
      break;
    }
  }
}
}  // namespace

std::string writeJson(const Json& v) {
  std::string out;
  write(out, v);
  return out;
}

}  // namespace acedrex::server
