// `acedrex migrate`: a SQLite database's games into PostgreSQL, verified.
#pragma once

#include <vector>

#include "args.h"

namespace acedrex::cli {

extern const std::vector<Flag> kMigrateFlags;
int cmdMigrate(const Args& args);

}  // namespace acedrex::cli
