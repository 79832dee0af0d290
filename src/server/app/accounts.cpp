#include "server/app/accounts.h"

#include <sodium.h>

#include <cctype>
#include <cstdio>
#include <mutex>

#include "server/app/http_util.h"

namespace acedrex::server {
namespace {

constexpr int64_t kDayMs = 24LL * 3600 * 1000;

bool initSodium() {
  static const bool ok = sodium_init() >= 0;
  return ok;
}

bool isBase62(const std::string& s) {
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) return false;
  return true;
}

// The host[:port] of an origin ("https://a.example:8080" -> "a.example:8080").
std::string hostOfOrigin(const std::string& origin) {
  const size_t scheme = origin.find("://");
  if (scheme == std::string::npos) return "";
  std::string host = origin.substr(scheme + 3);
  if (const size_t slash = host.find('/'); slash != std::string::npos) host.resize(slash);
  return host;
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Takes a token of `limiter` unless the limit is off (perUnit <= 0).
Outcome limit(RateLimiter& limiter, int perUnit, const std::string& key, const char* what) {
  if (perUnit <= 0) return done();
  int64_t retry = 0;
  if (limiter.allow(key, &retry)) return done();
  ApiError e = apiError(429, "rate-limited", std::string("too many ") + what + "; try again later");
  e.retryAfterMs = std::max<int64_t>(retry, 1000);
  return e;
}

}  // namespace

Accounts::Accounts(Store& store, AccountsConfig config, const TimeSource* time)
    : store_(store),
      config_(std::move(config)),
      time_(time ? *time : defaultTime_),
      signInsByClient_(config_.signInsPerClientPerMinute / 60.0, std::max(1, config_.signInsPerClientPerMinute), time_),
      signInsByName_(config_.signInsPerNamePerMinute / 60.0, std::max(1, config_.signInsPerNamePerMinute), time_),
      signUpsByClient_(config_.signUpsPerClientPerHour / 3600.0, std::max(1, config_.signUpsPerClientPerHour), time_) {
  initSodium();
}

std::string Accounts::nameProblem(const std::string& name) {
  const std::string rule = "a name is " + std::to_string(kMinName) + " to " + std::to_string(kMaxName) +
                           " letters, digits, - or _, starting with a letter";
  if (name.size() < kMinName || name.size() > kMaxName) return rule;
  if (!std::isalpha(static_cast<unsigned char>(name[0]))) return rule;
  for (char c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_')) return rule;
  return "";
}

std::string Accounts::keyOf(const std::string& name) { return lower(name); }

std::string Accounts::hashPassword(const std::string& password) {
  char out[crypto_pwhash_STRBYTES];
  hashing_.acquire();
  const int rc = crypto_pwhash_str(out, password.data(), password.size(), crypto_pwhash_OPSLIMIT_INTERACTIVE,
                                   crypto_pwhash_MEMLIMIT_INTERACTIVE);
  hashing_.release();
  return rc == 0 ? std::string(out) : std::string();
}

bool Accounts::verifyPassword(const std::string& hash, const std::string& password) {
  hashing_.acquire();
  const bool ok = crypto_pwhash_str_verify(hash.c_str(), password.data(), password.size()) == 0;
  hashing_.release();
  return ok;
}

const std::string& Accounts::dummyHash() {
  std::lock_guard lock(dummyM_);
  if (dummy_.empty()) dummy_ = hashPassword(randomToken(24));
  return dummy_;
}

std::string Accounts::tokenHash(const std::string& token) {
  unsigned char h[32];
  crypto_generichash(h, sizeof h, reinterpret_cast<const unsigned char*>(token.data()), token.size(), nullptr, 0);
  char hex[2 * sizeof h + 1];
  sodium_bin2hex(hex, sizeof hex, h, sizeof h);
  return hex;
}

Outcome Accounts::signUp(const std::string& name, const std::string& password, const std::string& client,
                         SignedIn* out) {
  if (std::string why = nameProblem(name); !why.empty()) return apiError(400, "bad-name", why);
  if (password.size() < kMinPassword || password.size() > kMaxPassword)
    return apiError(400, "bad-password", "a password is " + std::to_string(kMinPassword) + " to " +
                                             std::to_string(kMaxPassword) + " bytes");
  if (auto o = limit(signUpsByClient_, config_.signUpsPerClientPerHour, client, "new accounts"); !o.ok()) return o;
  StoredAccount a;
  a.key = keyOf(name);
  a.name = name;
  a.createdMs = time_.wallMs();
  auto existing = store_.findAccount(a.key);
  if (!existing.ok()) return apiError(503, "store", "accounts cannot be read now; try again");
  if (*existing) return apiError(409, "name-taken", "the name \"" + name + "\" is taken");
  a.passwordHash = hashPassword(password);
  if (a.passwordHash.empty()) return apiError(503, "busy", "the password could not be hashed now; try again");
  if (auto s = store_.createAccount(a); !s.ok()) {
    if (s.error().code == kStoreConflict) return apiError(409, "name-taken", "the name \"" + name + "\" is taken");
    return apiError(503, "store", "the account could not be stored; try again");
  }
  out->account = a;
  out->token = randomToken(static_cast<int>(kTokenLength));
  if (auto s = store_.createSession(tokenHash(out->token), a.key, time_.wallMs()); !s.ok())
    return apiError(503, "store", "the session could not be stored; sign in");
  return done();
}

Outcome Accounts::signIn(const std::string& name, const std::string& password, const std::string& client,
                         SignedIn* out) {
  if (password.size() > kMaxPassword)
    return apiError(400, "bad-password", "a password is at most " + std::to_string(kMaxPassword) + " bytes");
  if (auto o = limit(signInsByClient_, config_.signInsPerClientPerMinute, client, "sign-in attempts"); !o.ok())
    return o;
  const std::string key = keyOf(name.substr(0, kMaxName + 1));
  if (auto o = limit(signInsByName_, config_.signInsPerNamePerMinute, key, "sign-in attempts"); !o.ok()) return o;
  std::optional<StoredAccount> account;
  if (nameProblem(name).empty()) {
    auto found = store_.findAccount(key);
    if (!found.ok()) return apiError(503, "store", "accounts cannot be read now; try again");
    account = *found;
  }
  // The same work whether the name exists or not.
  const bool verified = verifyPassword(account ? account->passwordHash : dummyHash(), password);
  if (!account || !verified) return apiError(401, "bad-credentials", "unknown name or wrong password");
  out->account = *account;
  out->token = randomToken(static_cast<int>(kTokenLength));
  if (auto s = store_.createSession(tokenHash(out->token), account->key, time_.wallMs()); !s.ok())
    return apiError(503, "store", "the session could not be stored; try again");
  return done();
}

Outcome Accounts::signOut(const std::string& token) {
  if (token.size() != kTokenLength || !isBase62(token)) return done();
  if (auto s = store_.deleteSession(tokenHash(token)); !s.ok())
    return apiError(503, "store", "the session could not be ended; try again");
  return done();
}

std::optional<StoredAccount> Accounts::whoIs(const std::string& token) {
  if (token.size() != kTokenLength || !isBase62(token)) return std::nullopt;
  auto a = store_.sessionAccount(tokenHash(token), time_.wallMs() - config_.sessionDays * kDayMs);
  if (!a.ok()) return std::nullopt;
  return *a;
}

std::optional<StoredAccount> Accounts::find(const std::string& name) {
  if (!nameProblem(name).empty()) return std::nullopt;
  auto a = store_.findAccount(keyOf(name));
  if (!a.ok()) return std::nullopt;
  return *a;
}

std::string Accounts::cookie(const std::string& token) const {
  std::string c = std::string(kCookie) + "=" + token + "; Path=/; HttpOnly; SameSite=Lax; Max-Age=" +
                  std::to_string(static_cast<int64_t>(config_.sessionDays) * 86400);
  if (config_.publicOrigin.rfind("https://", 0) == 0) c += "; Secure";
  return c;
}

std::string Accounts::clearCookie() const {
  std::string c = std::string(kCookie) + "=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0";
  if (config_.publicOrigin.rfind("https://", 0) == 0) c += "; Secure";
  return c;
}

std::string Accounts::tokenFromCookies(const std::string& header) {
  const std::string want = std::string(kCookie) + "=";
  size_t i = 0;
  while (i < header.size()) {
    while (i < header.size() && (header[i] == ' ' || header[i] == ';')) ++i;
    size_t end = header.find(';', i);
    if (end == std::string::npos) end = header.size();
    if (header.compare(i, want.size(), want) == 0) return header.substr(i + want.size(), end - i - want.size());
    i = end;
  }
  return "";
}

bool Accounts::crossSite(const RequestOrigin& r) const {
  if (!r.secFetchSite.empty() && r.secFetchSite != "same-origin" && r.secFetchSite != "none") return true;
  if (r.origin.empty()) return false;
  const std::string host = lower(hostOfOrigin(r.origin));
  if (host.empty()) return true;  // "null" and other opaque origins
  if (!config_.publicOrigin.empty() && lower(r.origin) == lower(config_.publicOrigin)) return false;
  return host != lower(r.host);
}

}  // namespace acedrex::server
