// printable(): what an error line may echo. Control characters, C1 controls and bytes that are not UTF-8
// come out escaped; UTF-8 text comes out as it is.
#include <gtest/gtest.h>

#include "cluster/printable.hpp"

namespace pulpsim {
namespace {

TEST(Printable, KeepsUtf8Text) {
    EXPECT_EQ(printable("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x99\x82 plain"),
              "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x99\x82 plain");
    EXPECT_EQ(printable("\xc2\xa0\xdf\xbf\xef\xbf\xbd\xf4\x8f\xbf\xbf"),
              "\xc2\xa0\xdf\xbf\xef\xbf\xbd\xf4\x8f\xbf\xbf");
}

TEST(Printable, EscapesControlCharacters) {
    EXPECT_EQ(printable("a\nb\tc\x1b[31md\x7f"), "a\\nb\\tc\\x1b[31md\\x7f");
    // C1 controls (U+0080..U+009F, CSI is U+009B) are shown as their two bytes.
    EXPECT_EQ(printable("x\xc2\x9b"
                        "31m"),
              "x\\xc2\\x9b31m");
}

TEST(Printable, EscapesBytesThatAreNotUtf8) {
    EXPECT_EQ(printable("caf\xe9\xff"), "caf\\xe9\\xff");             // Latin-1
    EXPECT_EQ(printable("\xc0\xaf"), "\\xc0\\xaf");                   // an overlong '/'
    EXPECT_EQ(printable("\xed\xa0\x80"), "\\xed\\xa0\\x80");          // a surrogate
    EXPECT_EQ(printable("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80"); // past U+10FFFF
    EXPECT_EQ(printable("\xe2\x82"), "\\xe2\\x82");                   // cut short at the end
    EXPECT_EQ(printable("\xe2\x82z"), "\\xe2\\x82z");                 // cut short by ASCII
}

} // namespace
} // namespace pulpsim
