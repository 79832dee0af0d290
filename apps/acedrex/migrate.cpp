// `acedrex migrate --from FILE.db --to postgresql://...`: copies every game of
// a SQLite database into PostgreSQL and verifies the copy game by game.
#include "args.h"

#include <cstdio>
#include <filesystem>

#include "server/app/migrate.h"
#include "server/app/pg_store.h"
#include "server/app/store.h"

namespace acedrex::cli {

namespace {

const std::vector<Flag> kMigrateFlags = {
    {"from", Flag::kValue, "FILE", "the SQLite database to copy (no server may have it open)"},
    {"to", Flag::kValue, "URI", "the PostgreSQL database: postgresql://USER@HOST:PORT/DBNAME"},
};

int cmdMigrate(const Args& args) {
  if (!args.has("from") || !args.has("to")) return fail("migrate needs --from FILE.db and --to postgresql://...");
  const std::string from = args.value("from"), to = args.value("to");
  if (!server::isPostgresUri(to)) return fail("--to takes a postgresql:// URI, not \"" + to + "\"");
  std::error_code ec;
  if (!std::filesystem::is_regular_file(from, ec)) return fail("--from: no such database file: " + from);
  auto source = server::openSqliteStore(from);
  if (!source.ok())
    return fail("--from: " + source.error().text() + " (is a server still running on it? stop it first)");
  auto target = server::openPgStore(to);
  if (!target.ok()) return fail("--to: " + target.error().text());
  int seen = 0;
  auto report = server::migrateGames(**source, **target, [&](const std::string&) {
    if (++seen % 1000 == 0) std::fprintf(stderr, "migrate: %d games...\n", seen);
  });
  if (!report.ok()) {
    std::fprintf(stderr, "error: %s\n", report.error().text().c_str());
    std::fprintf(stderr, "migrate: stopped; games copied before it stay in the target, and running migrate again "
                         "skips them after checking them\n");
    return 1;
  }
  std::printf("migrate: %d games copied, %d already there and identical, %d record entries verified\n",
              report->copied, report->alreadyThere, report->entries);
  return 0;
}

}  // namespace

Command migrateCommand() {
  return {"migrate", "Copy every game of a SQLite database into PostgreSQL and verify the copy (docs/deploy.md).",
          kMigrateFlags, "", "", cmdMigrate};
}

}  // namespace acedrex::cli
