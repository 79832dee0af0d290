// The PostgreSQL Store (`serve --db postgresql://...`): several server
// processes share one database. libpq stays inside pg_store.cpp.
#pragma once

#include <memory>
#include <string>

#include "core/base/result.h"
#include "server/app/store.h"

namespace acedrex::server {

// The schema version this binary writes; a database with a newer one is refused.
inline constexpr int kPgSchemaVersion = 2;

// Whether a --db value names PostgreSQL (a libpq URI) rather than a SQLite file.
bool isPostgresUri(const std::string& db);

// Connects, creates or migrates the schema, and starts listening for other
// processes' changes. Errors: "store" (cannot connect, SQL failed),
// "schema" (the database is newer than this binary).
Result<std::unique_ptr<Store>> openPgStore(const std::string& uri);

}  // namespace acedrex::server
