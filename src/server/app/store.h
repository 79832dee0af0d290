// Store: where games live between restarts. The app writes through this
// interface only; SqliteStore is the real one, tests use an in-memory fake.
//
// Threading contract: every method may be called from any thread; an
// implementation serialises its own access. A method returns only after the
// change is committed (durable against a crash of the process). A write is
// all or nothing: when it fails, nothing of it is stored and the store takes
// the next write as before.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/base/result.h"

namespace acedrex::server {

struct SeatPlan {
  bool bot = false;
  int level = 5;       // bots: 1..9
  std::string token;   // humans: the secret seat token (hot-seat: the same for all human seats)
  bool open = false;   // humans: a free seat of a game listed publicly, until someone takes it (GameRoom::takeSeat)
  std::string name{};  // humans: the player's name in the records ("" for "Human")
  bool account = false;  // humans: `name` is an account's (else a guest's display name)
  bool rated = false;    // the result counts for the account's rating (a rated game: both seats, ratings.h)
  int rating = 0;        // accounts: the rating in this game (variant) when the game began, 0 none yet
  bool provisional = false;  // ... and whether it was provisional
};

// Whether a game is listed publicly with a free seat (a human seat nobody took yet).
inline bool hasOpenSeat(const std::vector<SeatPlan>& seats) {
  for (const auto& s : seats)
    if (s.open && !s.bot) return true;
  return false;
}

struct ClockSpec {
  bool enabled = false;
  int64_t initialMs = 0;
  int64_t incrementMs = 0;
};

// One entry of a game's record: a move text, "0000" (a lost turn), or the
// words "resign", "timeout", "draw" (a draw by agreement).
struct StoredEntry {
  int ply = 0;                    // 0-based index in the record
  std::string text;
  int seat = -1;
  int die = 0;                    // the throw it was made under, 0 none
  std::vector<int64_t> clockMs;   // every seat's clock after the entry (empty without clocks)
  int64_t atMs = 0;               // wall time, ms since 1970
};

struct StoredGame {
  std::string id;
  std::string variant;
  std::map<std::string, std::string> options;
  std::vector<SeatPlan> seats;
  ClockSpec clock;
  uint64_t seed = 1;
  bool hotSeat = false;
  std::string startFen;
  int64_t createdMs = 0;
  bool finished = false;
  std::string resultJson;         // the result object once finished
  std::vector<StoredEntry> entries;
};

// A player's account (accounts.h). `key` is the name in lower case, unique.
struct StoredAccount {
  std::string key;
  std::string name;          // as the player spelt it
  std::string passwordHash;  // libsodium's crypto_pwhash_str
  int64_t createdMs = 0;
};

// An account's rating in one game (variant), Glicko-2 (glicko2.h).
struct StoredRating {
  std::string account;  // the account's key
  std::string variant;
  double rating = 1500;
  double deviation = 350;
  double volatility = 0.06;
  int games = 0;         // rated games played
  int64_t updatedMs = 0;
};

// One line of a game's chat (chat.h): `n` counts the game's lines from 1.
struct ChatLine {
  int64_t n = 0;
  std::string room;    // "players" or "watchers"
  std::string author;  // the player's or account's name, or the seat's
  std::string seat;    // the author's seat ("" for watchers)
  std::string text;
  int64_t atMs = 0;
};

// The error code of a write that lost a race: another process stored an entry
// for the same ply first (a shared store only). The room reloads the record.
inline constexpr const char* kStoreConflict = "conflict";

// Called by a shared store when another process changed a game: its id, or
// "" when anything may have changed (the store lost and regained its server).
using StoreChangeListener = std::function<void(const std::string& gameId)>;

class Store {
 public:
  virtual ~Store() = default;
  virtual Status createGame(const StoredGame& g) = 0;
  virtual Status appendEntry(const std::string& id, const StoredEntry& e) = 0;
  // Appends the entry that ends the game and marks it finished, in one
  // transaction; a rated game's ratings change in the same transaction
  // (ratings.h). So does finishGame.
  virtual Status appendFinal(const std::string& id, const StoredEntry& e, const std::string& resultJson) = 0;
  // Removes the entries with ply >= fromPly (a takeback).
  virtual Status truncate(const std::string& id, int fromPly) = 0;
  virtual Status finishGame(const std::string& id, const std::string& resultJson) = 0;
  // Replaces a game's seats with `seats` if they are still `expected` (a seat
  // taken from the lobby); else fails with kStoreConflict and changes nothing.
  virtual Status replaceSeats(const std::string& id, const std::vector<SeatPlan>& expected,
                              const std::vector<SeatPlan>& seats) = 0;
  // Every game not finished, with its entries.
  virtual Result<std::vector<StoredGame>> loadUnfinished() = 0;
  // How many games are not finished.
  virtual Result<size_t> countUnfinished() = 0;
  // One game with its entries, or nullopt.
  virtual Result<std::optional<StoredGame>> load(const std::string& id) = 0;
  // The most recent games (without entries), newest first; filter: "all", "ongoing", "finished", or
  // "open" (unfinished with a free seat, see hasOpenSeat).
  virtual Result<std::vector<StoredGame>> recent(int limit, const std::string& filter) = 0;

  // Accounts and their sessions (accounts.h). createAccount fails with
  // kStoreConflict when the key is taken. A session is kept as the hash of
  // its token only.
  virtual Status createAccount(const StoredAccount& a) = 0;
  virtual Result<std::optional<StoredAccount>> findAccount(const std::string& key) = 0;
  virtual Status createSession(const std::string& tokenHash, const std::string& accountKey, int64_t createdMs) = 0;
  // The account of a session created at or after `notBeforeMs`, or nullopt.
  virtual Result<std::optional<StoredAccount>> sessionAccount(const std::string& tokenHash, int64_t notBeforeMs) = 0;
  virtual Status deleteSession(const std::string& tokenHash) = 0;
  // A game's chat: appendChat fails with kStoreConflict when line.n is taken.
  virtual Status appendChat(const std::string& gameId, const ChatLine& line) = 0;
  virtual Result<std::vector<ChatLine>> loadChat(const std::string& gameId) = 0;
  // An account's ratings, one per game (variant) it has played rated.
  virtual Result<std::vector<StoredRating>> ratingsOf(const std::string& accountKey) = 0;
  // The most recent games (without entries) with a seat of the account named `accountName`, newest first.
  virtual Result<std::vector<StoredGame>> gamesOf(const std::string& accountName, int limit) = 0;

  // Stores a whole game (header, entries, result) as it is, in one
  // transaction where the store has them (`acedrex migrate`).
  virtual Status importGame(const StoredGame& g) {
    StoredGame header = g;
    header.entries.clear();
    if (auto s = createGame(header); !s.ok()) return s;
    for (const auto& e : g.entries)
      if (auto s = appendEntry(g.id, e); !s.ok()) return s;
    return okStatus();
  }

  // Several server processes share this store (PostgreSQL). The defaults
  // below are those of a store owned by one process.
  virtual bool shared() const { return false; }
  // Changes made by other processes are reported to `listener` (from a
  // thread of the store's own, never with a store lock held). Once, before start.
  virtual void watch(StoreChangeListener listener) { (void)listener; }
  // Makes this process the home of a game: the one that runs its bots and
  // decides its clocks, until it releases it or dies. False: another
  // process is its home.
  virtual Result<bool> claimHome(const std::string& id) { (void)id; return true; }
  virtual void releaseHome(const std::string& id) { (void)id; }
  // Unfinished games with bots or clocks that no live process is home of.
  virtual Result<std::vector<std::string>> orphans() { return std::vector<std::string>(); }
  // Grows whenever the store lost its session (and with it every home it held).
  virtual uint64_t sessionEpoch() const { return 0; }
};

// An in-memory Store for tests and for `serve --db :memory:`-like use.
class MemoryStore : public Store {
 public:
  Status createGame(const StoredGame& g) override;
  Status appendEntry(const std::string& id, const StoredEntry& e) override;
  Status appendFinal(const std::string& id, const StoredEntry& e, const std::string& resultJson) override;
  Status truncate(const std::string& id, int fromPly) override;
  Status finishGame(const std::string& id, const std::string& resultJson) override;
  Status replaceSeats(const std::string& id, const std::vector<SeatPlan>& expected,
                      const std::vector<SeatPlan>& seats) override;
  Result<std::vector<StoredGame>> loadUnfinished() override;
  Result<size_t> countUnfinished() override;
  Result<std::optional<StoredGame>> load(const std::string& id) override;
  Result<std::vector<StoredGame>> recent(int limit, const std::string& filter) override;
  Status createAccount(const StoredAccount& a) override;
  Result<std::optional<StoredAccount>> findAccount(const std::string& key) override;
  Status createSession(const std::string& tokenHash, const std::string& accountKey, int64_t createdMs) override;
  Result<std::optional<StoredAccount>> sessionAccount(const std::string& tokenHash, int64_t notBeforeMs) override;
  Status deleteSession(const std::string& tokenHash) override;
  Result<std::vector<StoredRating>> ratingsOf(const std::string& accountKey) override;
  Result<std::vector<StoredGame>> gamesOf(const std::string& accountName, int limit) override;
  Status appendChat(const std::string& gameId, const ChatLine& line) override;
  Result<std::vector<ChatLine>> loadChat(const std::string& gameId) override;

  // For tests: make the next N writes fail (after `skip` writes that succeed).
  void failNextWrites(int n, int skip = 0);
  int writes() const;

 private:
  mutable std::mutex m_;
  std::vector<StoredGame> games_;
  std::map<std::string, StoredAccount> accounts_;
  struct Session {
    std::string account;
    int64_t createdMs = 0;
  };
  std::map<std::string, Session> sessions_;
  std::map<std::pair<std::string, std::string>, StoredRating> ratings_;  // (account, variant)
  std::map<std::string, std::vector<ChatLine>> chat_;
  // With m_ held: the ratings after game g's result (when rated and not finished before).
  void rateLocked(const StoredGame& g, const std::string& resultJson);
  int failNext_ = 0;
  int skip_ = 0;
  int writes_ = 0;
  StoredGame* find(const std::string& id);
  bool shouldFail();
  // With m_ held: appends one entry (counting a write that may fail), in order.
  Result<StoredGame*> appendLocked(const std::string& id, const StoredEntry& e);
};

// The text forms of a game's seats, options and clocks in the SQL stores.
std::string seatsToJson(const std::vector<SeatPlan>& seats);
std::vector<SeatPlan> seatsFromJson(const std::string& text);
std::string optionsToJson(const std::map<std::string, std::string>& options);
std::map<std::string, std::string> optionsFromJson(const std::string& text);
std::string clocksToText(const std::vector<int64_t>& clocks);
std::vector<int64_t> clocksFromText(const std::string& text);

// Opens (creating if needed) a SQLite database file.
Result<std::unique_ptr<Store>> openSqliteStore(const std::string& path, bool durable = false);

}  // namespace acedrex::server
