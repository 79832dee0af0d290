// The access log's targets: never a seat token, never a control byte.
#include <gtest/gtest.h>

#include <string>

#include "server/app/http_util.h"
#include "server/app/log.h"

namespace acedrex::server {
namespace {

TEST(ServerLog, ATargetsTokenIsRedactedHoweverItsKeyIsWritten) {
  EXPECT_EQ(log::redactTarget("/api/game/g1?token=SECRET"), "/api/game/g1?token=***");
  EXPECT_EQ(log::redactTarget("/ws/game/g1?a=1&token=SECRET&b=2"), "/ws/game/g1?a=1&token=***&b=2");
  EXPECT_EQ(log::redactTarget("/x?access_token=SECRET"), "/x?access_token=***");
  EXPECT_EQ(log::redactTarget("/api/game/g1?seat=red"), "/api/game/g1?seat=red");
  // Keys the API reads as "token" once decoded, and keys that do not decode.
  for (const std::string key : {"tok%65n", "%74oken", "%74%6F%6B%65%6E", "tok%zzen", "token%"}) {
    const std::string target = "/api/game/g1/stream?x=1&" + key + "=SECRET";
    Target t = parseTarget(target);
    const std::string out = log::redactTarget(target);
    EXPECT_EQ(out.find("SECRET"), std::string::npos) << key << " -> " << out;
    EXPECT_NE(out.find(key + "=***"), std::string::npos) << key << " -> " << out;
    if (t.ok) {
      EXPECT_EQ(t.query["token"], "SECRET") << key << ": the API reads it as the token";
    }
  }
  // Bytes outside printable ASCII are escaped.
  EXPECT_EQ(log::redactTarget(std::string("/a b\x01\xff\n", 7)), "/a%20b%01%FF%0A");
}

}  // namespace
}  // namespace acedrex::server
