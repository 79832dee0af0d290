// Result<T>: a value or an Error, for every parser at the boundary.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace acedrex {

// An error names what was wrong (code), says why (message) and where
// (location: which input, which ply, which column...).
struct Error {
  std::string code;
  std::string message;
  std::string location;

  std::string text() const {
    return location.empty() ? message : location + ": " + message;
  }
};

template <class T>
class Result {
 public:
  Result(T value) : v_(std::move(value)) {}  // NOLINT(google-explicit-constructor)
  Result(Error error) : v_(std::move(error)) {}  // NOLINT(google-explicit-constructor)

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() { return std::get<0>(v_); }
  const T& value() const { return std::get<0>(v_); }
  T& operator*() { return value(); }
  const T& operator*() const { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  const Error& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, Error> v_;
};

// For operations that produce no value.
struct Unit {};
using Status = Result<Unit>;
inline Status okStatus() { return Unit{}; }

inline Error makeError(std::string code, std::string message, std::string location = {}) {
  return Error{std::move(code), std::move(message), std::move(location)};
}

}  // namespace acedrex
