#include "server/app/feed.h"

#include "server/app/room.h"

namespace acedrex::server {

std::shared_ptr<const std::string> SharedMessages::get(const Update& u, bool delta, const std::string& you,
                                                       Format format) {
  const std::shared_ptr<const std::string>& text = delta ? u.delta : u.base;
  const Key key{text.get(), you, format};
  std::lock_guard lock(m_);
  if (auto it = cache_.find(key); it != cache_.end()) {
    if (auto msg = it->second.msg.lock(); msg && it->second.text.lock() == text) return msg;
  }
  auto msg = std::make_shared<const std::string>(compose(u, delta, you, format));
  if (cache_.size() >= 4096) prune();
  cache_[key] = Entry{text, msg};
  return msg;
}

std::string SharedMessages::compose(const Update& u, bool delta, const std::string& you, Format format) {
  const std::string& text = delta ? *u.delta : *u.base;
  if (format == kNdjson) return stateWithYou(text, you) + "\n";
  std::string msg;
  msg.reserve(text.size() + you.size() + 64);
  msg += "{\"t\":\"";
  msg += delta ? "delta" : u.type;
  msg += "\",\"d\":";
  msg += stateWithYou(text, you);
  msg += ",\"v\":" + std::to_string(u.v) + "}";
  return msg;
}

void SharedMessages::prune() {
  for (auto it = cache_.begin(); it != cache_.end();) {
    if (it->second.msg.expired()) it = cache_.erase(it);
    else ++it;
  }
  if (cache_.size() >= 4096) cache_.clear();
}

}  // namespace acedrex::server
