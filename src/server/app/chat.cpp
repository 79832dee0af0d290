#include "server/app/chat.h"

namespace acedrex::server {

Chat::Chat(Store& store, const TimeSource& time)
    : store_(store), time_(time), authors_(1000.0 / kRefillMs, kBurst, time) {}

std::string Chat::textProblem(const std::string& text, std::string* cleaned) {
  size_t b = 0, e = text.size();
  auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  while (b < e && space(text[b])) ++b;
  while (e > b && space(text[e - 1])) --e;
  std::string t = text.substr(b, e - b);
  if (t.empty()) return "a line has some text";
  size_t chars = 0;
  for (size_t i = 0; i < t.size(); ++i) {
    const auto c = static_cast<unsigned char>(t[i]);
    if (c < 0x20 || c == 0x7f) return "a line is one line of text without control characters";
    // U+0080..U+009F (C1 controls): 0xC2 0x80..0x9F
    if (c == 0xc2 && i + 1 < t.size() && static_cast<unsigned char>(t[i + 1]) < 0xa0) return "a line has no control characters";
    if ((c & 0xc0) != 0x80) ++chars;  // a code point starts here (the body is valid UTF-8 already)
  }
  if (chars > kMaxChars) return "a line is at most " + std::to_string(kMaxChars) + " characters";
  if (cleaned) *cleaned = std::move(t);
  return "";
}

Outcome Chat::post(const std::string& gameId, const std::string& room, const std::string& author,
                   const std::string& seat, const std::string& text, const std::string& rateKey, ChatLine* out) {
  std::string cleaned;
  if (std::string why = textProblem(text, &cleaned); !why.empty()) return apiError(400, "bad-text", why);
  int64_t retry = 0;
  if (!authors_.allow(gameId + "|" + rateKey, &retry)) {
    ApiError e = apiError(429, "rate-limited", "too many lines; wait a moment");
    e.retryAfterMs = std::max<int64_t>(retry, 1);
    return e;
  }
  for (int attempt = 0; attempt < 3; ++attempt) {
    auto all = store_.loadChat(gameId);
    if (!all.ok()) return apiError(503, "store", "the chat cannot be read now");
    if (all->size() >= kMaxLines) return apiError(409, "chat-full", "this game's chat is full");
    ChatLine line{all->empty() ? 1 : all->back().n + 1, room, author, seat, cleaned, time_.wallMs()};
    const Status stored = store_.appendChat(gameId, line);
    if (stored.ok()) {
      *out = std::move(line);
      return done();
    }
    if (stored.error().code != kStoreConflict) return apiError(503, "store", "the line could not be stored");
  }
  return apiError(503, "store", "the line could not be stored; try again");
}

Result<std::vector<ChatLine>> Chat::lines(const std::string& gameId, const std::string& room, int64_t after) {
  auto all = store_.loadChat(gameId);
  if (!all.ok()) return all.error();
  std::vector<ChatLine> out;
  for (auto& l : *all)
    if (l.room == room && l.n > after) out.push_back(std::move(l));
  return out;
}

}  // namespace acedrex::server
