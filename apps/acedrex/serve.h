// `acedrex serve`: the web server (page, JSON API, streams, WebSockets).
#pragma once

#include <vector>

#include "args.h"

namespace acedrex::cli {

// The flags `serve` takes (declared to the parser in commands.cpp).
extern const std::vector<Flag> kServeFlags;
extern const char* kServeUsage;

// Runs the server with the parsed flags. Returns the exit code.
int cmdServe(const Args& args);

}  // namespace acedrex::cli
