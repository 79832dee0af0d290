// A small JSON value with a strict parser and a compact writer, for the API's
// request bodies and WebSocket messages. The parser is a boundary parser: it
// never throws, limits nesting depth, and reports the column of an error.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/result.h"

namespace acedrex::server {

class Json {
 public:
  enum class Kind { kNull, kBool, kNumber, kString, kArray, kObject };

  Json() = default;
  static Json boolean(bool b);
  static Json number(double d);
  static Json string(std::string s);
  static Json array();
  static Json object();

  Kind kind() const { return kind_; }
  bool isNull() const { return kind_ == Kind::kNull; }
  bool isBool() const { return kind_ == Kind::kBool; }
  bool isNumber() const { return kind_ == Kind::kNumber; }
  bool isString() const { return kind_ == Kind::kString; }
  bool isArray() const { return kind_ == Kind::kArray; }
  bool isObject() const { return kind_ == Kind::kObject; }

  bool asBool() const { return b_; }
  double asNumber() const { return d_; }
  const std::string& asString() const { return s_; }
  const std::vector<Json>& items() const { return a_; }
  const std::vector<std::pair<std::string, Json>>& members() const { return o_; }

  // Object member or nullptr (the first one when a key repeats).
  const Json* get(std::string_view key) const;
  // Whether the number is an integer in [lo, hi].
  bool isInteger(double lo, double hi) const;

  void push(Json v) { a_.push_back(std::move(v)); }
  void set(std::string key, Json v);  // replaces an existing key
  void add(std::string key, Json v) { o_.emplace_back(std::move(key), std::move(v)); }

 private:
  Kind kind_ = Kind::kNull;
  bool b_ = false;
  double d_ = 0;
  std::string s_;
  std::vector<Json> a_;
  std::vector<std::pair<std::string, Json>> o_;
};

// Parses one JSON text (RFC 8259); at most `maxDepth` nested arrays/objects.
Result<Json> parseJson(std::string_view text, int maxDepth = 32);

// Whether s is well-formed UTF-8 (no overlong forms, no surrogates, nothing
// above U+10FFFF).
bool isValidUtf8(std::string_view s);
// The length of the well-formed UTF-8 sequence that starts s[i], 0 if none does.
size_t utf8SequenceAt(std::string_view s, size_t i);

// Writes a JSON string literal (with quotes) for s. The result is always valid
// UTF-8 and valid JSON whatever the bytes of s: control characters (and DEL,
// U+2028, U+2029) are \u-escaped, and every byte that does not belong to a
// well-formed UTF-8 sequence becomes U+FFFD.
std::string jsonQuote(std::string_view s);
void appendQuoted(std::string& out, std::string_view s);

// A streaming writer for building replies without an intermediate tree.
class JsonWriter {
 public:
  JsonWriter& beginObject();
  JsonWriter& endObject();
  JsonWriter& beginArray();
  JsonWriter& endArray();
  JsonWriter& key(std::string_view k);
  JsonWriter& value(std::string_view s);
  JsonWriter& value(const char* s) { return value(std::string_view(s)); }
  JsonWriter& value(const std::string& s) { return value(std::string_view(s)); }
  JsonWriter& value(int64_t n);
  JsonWriter& value(int n) { return value(static_cast<int64_t>(n)); }
  JsonWriter& value(uint64_t n);
  JsonWriter& value(bool b);
  JsonWriter& null();
  JsonWriter& raw(std::string_view json);  // an already written JSON value
  const std::string& str() const { return out_; }
  std::string take() { return std::move(out_); }

 private:
  void comma();
  std::string out_;
  std::vector<bool> first_;  // per open container: no element yet
  bool afterKey_ = false;
};

std::string writeJson(const Json& v);

}  // namespace acedrex::server
