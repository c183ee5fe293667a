package io.headroom.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.Test;

class UntrustedTextTest {

    @Test
    void controlCharactersAreWrittenOutNotObeyed() {
        assertEquals("\\x1b]0;pwned\\x07\\x1b[2J red", UntrustedText.line("\u001b]0;pwned\u0007\u001b[2J red", 100));
        assertEquals("a\\x9bb \\x7f", UntrustedText.line("a\u009bb \u007f", 100), "C1 controls and DEL too");
        assertEquals("abc\\u202edef", UntrustedText.line("abc\u202edef", 100), "a bidirectional override");
        assertEquals("lone \\ud800 surrogate", UntrustedText.line("lone \ud800 surrogate", 100));
        assertEquals("emoji \uD83D\uDE00 stays", UntrustedText.line("emoji \uD83D\uDE00 stays", 100));
    }

    @Test
    void aLineIsOneLineAndCapped() {
        assertEquals("one two three", UntrustedText.line("  one\ntwo\r\n\tthree  ", 100));
        assertEquals("abcde…", UntrustedText.line("abcdefgh", 5));
        assertEquals("abcde", UntrustedText.line("abcde   ", 5), "trailing space is not more text");
        assertEquals("", UntrustedText.line(null, 5));
        String capped = UntrustedText.line("\u001b".repeat(1000), 50);
        assertEquals(51, capped.length(), "the cap counts what is shown, escapes included");
        assertFalse(UntrustedText.line("ab\uD83D\uDE00", 3).contains("\uD83D\u2026"), "never half a character");
    }

    @Test
    void linesKeepLineBreaksAndTabsOnly() {
        assertEquals("a:\n\tb\\x1b[2J\n", UntrustedText.lines("a:\r\n\tb\u001b[2J\n"));
        assertEquals(-1, UntrustedText.firstUnsafe("plain text é ü"));
        assertEquals(3, UntrustedText.firstUnsafe("abc\u001bdef"));
        assertEquals("U+001B", UntrustedText.codePoint(0x1b));
    }
}
