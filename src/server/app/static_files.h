// WebRoot: the static files of the front end, served from the copy embedded
// in the binary or, for front-end development, from a directory.
//
// A request target is decoded first and validated after: a path that decodes
// to a NUL, a backslash, a control character or a "." or ".." segment is
// refused (400), and in a directory a file is served only when it resolves
// (symbolic links followed) to a regular file inside the root. Pure: no
// sockets, so the fuzzer and the tests drive it directly.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "core/base/result.h"

namespace acedrex::server {

struct StaticReply {
  int status = 200;
  std::string contentType;
  std::shared_ptr<const std::string> body;  // shared: embedded files are not copied per request
  std::string errorCode;                    // for non-200 replies: the JSON error's code and message
  std::string errorMessage;
};

class WebRoot {
 public:
  // The files compiled into the binary.
  static WebRoot embedded();
  // A directory on disk (it must exist).
  static Result<WebRoot> directory(const std::filesystem::path& dir);

  // The reply to GET `target` (path and query, as sent). Pages of the front
  // end: "/" is index.html; "/game/abc" is game.html (the first segment plus
  // ".html") when there is one. Anything else that is not a file is a 404.
  StaticReply get(std::string_view target) const;
  // "embedded" or the directory.
  std::string describe() const;

 private:
  WebRoot() = default;
  // The file at a validated relative path ("js/app.js"), or nullptr.
  std::shared_ptr<const std::string> lookup(const std::string& rel) const;

  std::map<std::string, std::shared_ptr<const std::string>, std::less<>> files_;  // embedded
  std::filesystem::path dir_;                                                       // canonical; empty: embedded
};

std::string mimeType(std::string_view path);

}  // namespace acedrex::server
