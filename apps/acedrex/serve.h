// `acedrex serve`: the web server (page, JSON API, streams, WebSockets).
#pragma once

#include <string>
#include <vector>

namespace acedrex::cli {

// args: the words after "serve". Returns the exit code.
int cmdServe(const std::vector<std::string>& args);
extern const char* kServeUsage;

}  // namespace acedrex::cli
