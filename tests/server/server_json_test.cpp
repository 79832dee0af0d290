#include <gtest/gtest.h>

#include "server/app/http_util.h"
#include "server/app/json.h"

namespace acedrex::server {
namespace {

TEST(ServerJson, ParsesValues) {
  auto j = parseJson(R"( {"a": [1, -2.5e1, true, false, null], "b": "x\"\\\/\u00e9\ud83d\ude00", "c": {}} )");
  ASSERT_TRUE(j.ok()) << j.error().text();
  EXPECT_EQ(j->get("a")->items().size(), 5u);
  EXPECT_EQ(j->get("a")->items()[1].asNumber(), -25);
  EXPECT_EQ(j->get("b")->asString(), "x\"\\/\xc3\xa9\xf0\x9f\x98\x80");
  EXPECT_TRUE(j->get("c")->isObject());
  EXPECT_EQ(writeJson(*j), R"({"a":[1,-25,true,false,null],"b":"x\"\\/)" "\xc3\xa9\xf0\x9f\x98\x80" R"(","c":{}})");
}

TEST(ServerJson, RefusesMalformedText) {
  for (const char* bad : {"", "{", "}", "[1,]", "{\"a\"}", "{\"a\":}", "01", "1.", "-", "\"\\x\"", "\"\\ud800\"",
                          "tru", "nul", "[1] 2", "\"a\nb\"", "{\"a\":1,}", "1e", "[\"\\u12\"]"}) {
    EXPECT_FALSE(parseJson(bad).ok()) << bad;
  }
  EXPECT_FALSE(parseJson(std::string(40, '[') + std::string(40, ']')).ok());
  EXPECT_TRUE(parseJson(std::string(30, '[') + std::string(30, ']')).ok());
}

TEST(ServerJson, WriterEscapes) {
  JsonWriter w;
  w.beginObject().key("k\"").value(std::string("a\x01\n")).key("n").value(int64_t{-3}).key("e").beginArray().endArray();
  w.endObject();
  EXPECT_EQ(w.str(), "{\"k\\\"\":\"a\\u0001\\n\",\"n\":-3,\"e\":[]}");
}

TEST(ServerJson, WriterAlwaysEmitsValidUtf8) {
  struct Case {
    std::string in, out;
  } cases[] = {
      {"plain", "\"plain\""},
      {"\xff", "\"\xef\xbf\xbd\""},                         // a byte that is never UTF-8
      {"a\xc3", "\"a\xef\xbf\xbd\""},                       // a truncated sequence at the end
      {"\xc3(", "\"\xef\xbf\xbd(\""},                       // a lead byte without its continuation
      {"\xc0\xaf", "\"\xef\xbf\xbd\xef\xbf\xbd\""},        // an overlong '/'
      {"\xed\xa0\x80", "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\""},  // a UTF-16 surrogate
      {"\xf4\x90\x80\x80", "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\""},  // above U+10FFFF
      {"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\""},  // valid: kept
      {std::string("a\0b\x1f\x7f", 5), "\"a\\u0000b\\u001f\\u007f\""},
      {"\xe2\x80\xa8", "\"\\u2028\""},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(jsonQuote(c.in), c.out);
    EXPECT_TRUE(isValidUtf8(jsonQuote(c.in)));
    auto back = parseJson(jsonQuote(c.in));
    EXPECT_TRUE(back.ok()) << jsonQuote(c.in);
  }
  EXPECT_FALSE(isValidUtf8("\xff"));
  EXPECT_FALSE(isValidUtf8("\xc0\xaf"));
  EXPECT_TRUE(isValidUtf8("\xc3\xa9"));
}

TEST(ServerJson, ParserRefusesInvalidUtf8) {
  EXPECT_FALSE(parseJson("\"\xff\"").ok());
  EXPECT_FALSE(parseJson("{\"a\xc3\":1}").ok());
  EXPECT_FALSE(parseJson("\"\xed\xa0\x80\"").ok());
  EXPECT_TRUE(parseJson("\"\xc3\xa9\"").ok());
}

TEST(ServerHttpUtil, Targets) {
  auto t = parseTarget("/api/game/ab%20c/move/e2e4?token=x%2By&flag&a=1+2");
  ASSERT_TRUE(t.ok);
  ASSERT_EQ(t.segments.size(), 5u);
  EXPECT_EQ(t.segments[2], "ab c");
  EXPECT_EQ(t.query["token"], "x+y");
  EXPECT_EQ(t.query["a"], "1 2");
  EXPECT_TRUE(t.query.count("flag"));
  EXPECT_FALSE(parseTarget("/api/%").ok);
  EXPECT_FALSE(parseTarget("/api/%4").ok);
  EXPECT_FALSE(parseTarget("/api/%4g").ok);
  EXPECT_EQ(bearerToken("Bearer abc"), "abc");
  EXPECT_EQ(bearerToken("bearer  abc "), "abc");
  EXPECT_EQ(bearerToken("Basic abc"), "");
  EXPECT_EQ(bearerToken("Bearer"), "");
  const std::string a = randomToken(24), b = randomToken(24);
  EXPECT_EQ(a.size(), 24u);
  EXPECT_NE(a, b);
}

}  // namespace
}  // namespace acedrex::server
