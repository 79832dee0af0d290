#include "server/app/migrate.h"

#include <climits>

namespace acedrex::server {

std::string storedGameDifference(const StoredGame& a, const StoredGame& b) {
  if (a.id != b.id) return "id";
  if (a.variant != b.variant) return "variant";
  if (a.options != b.options) return "options";
  if (a.seats.size() != b.seats.size()) return "number of seats";
  for (size_t i = 0; i < a.seats.size(); ++i)
    if (a.seats[i].bot != b.seats[i].bot || a.seats[i].level != b.seats[i].level ||
        a.seats[i].token != b.seats[i].token || a.seats[i].name != b.seats[i].name ||
        a.seats[i].account != b.seats[i].account || a.seats[i].rated != b.seats[i].rated ||
        a.seats[i].rating != b.seats[i].rating || a.seats[i].provisional != b.seats[i].provisional)
      return "seat " + std::to_string(i);
  if (a.clock.enabled != b.clock.enabled || a.clock.initialMs != b.clock.initialMs ||
      a.clock.incrementMs != b.clock.incrementMs)
    return "clock";
  if (a.seed != b.seed) return "seed";
  if (a.hotSeat != b.hotSeat) return "hotSeat";
  if (a.startFen != b.startFen) return "start position";
  if (a.createdMs != b.createdMs) return "creation time";
  if (a.finished != b.finished || a.resultJson != b.resultJson) return "result";
  if (a.entries.size() != b.entries.size())
    return "record length (" + std::to_string(a.entries.size()) + " vs " + std::to_string(b.entries.size()) + ")";
  for (size_t i = 0; i < a.entries.size(); ++i) {
    const StoredEntry& x = a.entries[i];
    const StoredEntry& y = b.entries[i];
    if (x.ply != y.ply || x.text != y.text || x.seat != y.seat || x.die != y.die || x.clockMs != y.clockMs ||
        x.atMs != y.atMs)
      return "entry " + std::to_string(i);
  }
  return "";
}

Result<MigrateReport> migrateGames(Store& from, Store& to, const std::function<void(const std::string&)>& progress) {
  auto games = from.recent(INT_MAX, "all");
  if (!games.ok()) return makeError("read", "the source cannot be read: " + games.error().text());
  MigrateReport report;
  // Oldest first, so the target lists them in the same order.
  for (auto it = games->rbegin(); it != games->rend(); ++it) {
    const std::string& id = it->id;
    if (progress) progress(id);
    auto source = from.load(id);
    if (!source.ok() || !*source) return makeError("read", "game " + id + " cannot be read from the source");
    const StoredGame& g = **source;
    auto existing = to.load(id);
    if (!existing.ok()) return makeError("write", "game " + id + ": the target cannot be read: " + existing.error().text());
    if (*existing) {
      const std::string diff = storedGameDifference(g, **existing);
      if (!diff.empty())
        return makeError("verify", "game " + id + " is already in the target, different (" + diff + ")");
      ++report.alreadyThere;
      report.entries += static_cast<int>(g.entries.size());
      continue;
    }
    if (auto s = to.importGame(g); !s.ok())
      return makeError("write", "game " + id + " could not be copied: " + s.error().text());
    auto copy = to.load(id);
    if (!copy.ok() || !*copy) return makeError("verify", "game " + id + " cannot be read back from the target");
    const std::string diff = storedGameDifference(g, **copy);
    if (!diff.empty()) return makeError("verify", "game " + id + " reads back different: " + diff);
    ++report.copied;
    report.entries += static_cast<int>(g.entries.size());
  }
  return report;
}

}  // namespace acedrex::server
