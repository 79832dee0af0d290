// Accounts: sign up, sign in and sign out with a name and a password, and
// the sessions that remember a signed-in browser (docs/api.md, "Accounts").
//
// - Passwords are hashed with libsodium's Argon2id (crypto_pwhash_str,
//   interactive limits); at most kHashesAtOnce hashes run at once.
// - A session is a random token in an HttpOnly, SameSite=Lax cookie (Secure
//   when the configured public origin is https); the store keeps only the
//   token's hash (BLAKE2b), so a copy of the database signs nobody in.
// - Sign-in attempts are limited per client address and per name; an unknown
//   name and a wrong password get the same reply after the same work (an
//   unknown name is verified against a dummy hash).
// - Names: kMinName..kMaxName letters, digits, '-' or '_', starting with a
//   letter, unique without regard to case. Passwords: kMinPassword..
//   kMaxPassword bytes (a longer one is refused before any hashing).
//
// Threading contract: every method may be called from any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <semaphore>
#include <string>

#include "server/app/common.h"
#include "server/app/http_util.h"
#include "server/app/limits.h"
#include "server/app/store.h"

namespace acedrex::server {

struct AccountsConfig {
  std::string publicOrigin;           // e.g. "https://acedrex.example"; https makes cookies Secure
  int signInsPerClientPerMinute = 10;  // sign-in attempts per client address
  int signInsPerNamePerMinute = 5;     // sign-in attempts per account name
  int signUpsPerClientPerHour = 10;    // accounts made per client address
  int sessionDays = 30;                // a session's life
};

class Accounts {
 public:
  static constexpr const char* kCookie = "acedrex_session";
  static constexpr size_t kMinName = 2, kMaxName = 20;
  static constexpr size_t kMinPassword = 8, kMaxPassword = 256;
  static constexpr size_t kTokenLength = 32;
  static constexpr int kHashesAtOnce = 2;

  explicit Accounts(Store& store, AccountsConfig config = {}, const TimeSource* time = nullptr);

  // Makes the dummy hash that unknown names are verified against now (the
  // server calls it at start, so that no sign-in pays for it; else the first
  // sign-in with an unknown name does).
  void prepare() { (void)dummyHash(); }

  // Why a name is not allowed ("" when it is).
  static std::string nameProblem(const std::string& name);
  // The unique form of a name (ASCII lower case).
  static std::string keyOf(const std::string& name);

  struct SignedIn {
    StoredAccount account;
    std::string token;  // the new session's token (for the cookie)
  };
  // 400 "bad-name" / "bad-password", 409 "name-taken", 429 "rate-limited".
  Outcome signUp(const std::string& name, const std::string& password, const std::string& client, SignedIn* out);
  // 400 "bad-password" (too long), 401 "bad-credentials" (unknown name or wrong password alike), 429 "rate-limited".
  Outcome signIn(const std::string& name, const std::string& password, const std::string& client, SignedIn* out);
  // Ends the session of `token` (nothing when there is none).
  Outcome signOut(const std::string& token);
  // The account of a live session, or nullopt (unknown, malformed, expired, or the store failed).
  std::optional<StoredAccount> whoIs(const std::string& token);
  // An account by name, or nullopt.
  std::optional<StoredAccount> find(const std::string& name);

  // The store the accounts live in (with their ratings and games).
  Store& store() { return store_; }
  const TimeSource& time() const { return time_; }

  // The Set-Cookie value that holds `token`, and the one that removes it.
  std::string cookie(const std::string& token) const;
  std::string clearCookie() const;
  // The session token in a Cookie header ("" when there is none).
  static std::string tokenFromCookies(const std::string& cookieHeader);
  // Whether a request comes from another site (a browser's Sec-Fetch-Site
  // or Origin says so); requests without either (not from a browser) pass.
  bool crossSite(const RequestOrigin& r) const;

 private:
  std::string hashPassword(const std::string& password);
  bool verifyPassword(const std::string& hash, const std::string& password);
  const std::string& dummyHash();
  static std::string tokenHash(const std::string& token);

  Store& store_;
  AccountsConfig config_;
  TimeSource defaultTime_;
  const TimeSource& time_;
  RateLimiter signInsByClient_, signInsByName_, signUpsByClient_;
  std::counting_semaphore<kHashesAtOnce> hashing_{kHashesAtOnce};
  std::mutex dummyM_;
  std::string dummy_;
};

}  // namespace acedrex::server
