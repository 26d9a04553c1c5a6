#include "core/report/request_csv.h"

#include <gtest/gtest.h>

#include <clocale>
#include <fstream>
#include <locale>
#include <sstream>

#include "core/error.h"
#include "tests/support/test_env.h"

namespace ayar {
namespace {

std::vector<RequestRecord> records() {
  RequestRecord ok;
  ok.index = 0;
  ok.scheduledS = 0.5;
  ok.startS = 0.5015;
  ok.chunkTimesS = {0.1, 0.2, 0.4};
  ok.promptTokens = 20;
  ok.outputTokens = 5;
  ok.success = true;
  ok.httpStatus = 200;
  RequestRecord one;  // one token: no TPOT
  one.index = 1;
  one.startS = 1.0;
  one.scheduledS = 1.0;
  one.chunkTimesS = {0.25};
  one.promptTokens = 3;
  one.outputTokens = 1;
  one.success = true;
  one.httpStatus = 200;
  RequestRecord failed;
  failed.index = 2;
  failed.startS = 2.0;
  failed.scheduledS = 2.0;
  failed.promptTokens = 4;
  failed.httpStatus = 400;
  failed.error = "Bad \"max_tokens\", see\nline 2";
  return {ok, one, failed};
}

constexpr const char* kExpected =
    "index,scheduled_s,start_s,ttft_ms,tpot_ms,e2el_ms,itl_count,prompt_tokens,output_tokens,success,"
    "http_status,error\n"
    "0,0.500000,0.501500,100.000,75.000,400.000,2,20,5,true,200,\n"
    "1,1.000000,1.000000,250.000,,250.000,0,3,1,true,200,\n"
    "2,2.000000,2.000000,,,,0,4,0,false,400,\"Bad \"\"max_tokens\"\", see\nline 2\"\n";

TEST(RequestCsv, WritesOneQuotedRowPerRequest) {
  EXPECT_EQ(requestsCsv(records()), kExpected);
}

// A locale whose decimal separator is a comma, as de_DE's is.
struct CommaDecimal : std::numpunct<char> {
  char do_decimal_point() const override { return ','; }
};

TEST(RequestCsv, NumbersIgnoreTheProcessLocale) {
  const std::locale previous = std::locale::global(std::locale(std::locale::classic(), new CommaDecimal));
  // Also the C library's numeric locale, where one with a comma is installed.
  const std::string previousC = std::setlocale(LC_NUMERIC, nullptr);
  for (const char* name : {"de_DE.UTF-8", "de_DE.utf8", "tr_TR.UTF-8", "fr_FR.UTF-8"}) {
    if (std::setlocale(LC_NUMERIC, name)) break;
  }
  const std::string csv = requestsCsv(records());
  std::setlocale(LC_NUMERIC, previousC.c_str());
  std::locale::global(previous);
  EXPECT_EQ(csv, kExpected);
}

TEST(RequestCsv, QuotesOnlyWhatNeedsIt) {
  EXPECT_EQ(csvField("plain"), "plain");
  EXPECT_EQ(csvField("a,b"), "\"a,b\"");
  EXPECT_EQ(csvField("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(csvField(" padded"), "\" padded\"");
  EXPECT_EQ(csvField(""), "");
}

TEST(RequestCsv, WritesTheFileAndNamesAnUnwritablePath) {
  test::TempDir dir;
  writeRequestsCsv(dir / "requests.csv", records());
  std::ifstream in(dir / "requests.csv");
  std::stringstream content;
  content << in.rdbuf();
  EXPECT_EQ(content.str(), kExpected);
  try {
    writeRequestsCsv(dir / "no-such-folder" / "requests.csv", records());
    FAIL() << "no error for an unwritable path";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("no-such-folder"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace ayar
