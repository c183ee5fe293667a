package io.headroom.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.time.ZoneId;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** The end of a pause kept at exit, as chosen: the offered options, and custom text read or refused in words. */
class KeepUntilTest {
    static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");
    /** 11:40 in Berlin. */
    static final Instant NOW = Instant.parse("2026-12-02T10:40:00Z");
    static final Instant HELD = Instant.parse("2026-12-02T13:05:00Z");

    @Test
    void theOfferedOptions() {
        assertEquals(HELD, KeepUntil.resolve(KeepUntil.Option.AS_HELD, null, HELD, NOW, BERLIN).until());
        assertEquals(Instant.parse("2026-12-02T11:40:00Z"),
                KeepUntil.resolve(KeepUntil.Option.ONE_HOUR, null, HELD, NOW, BERLIN).until());
        assertEquals(Instant.parse("2026-12-02T14:40:00Z"),
                KeepUntil.resolve(KeepUntil.Option.FOUR_HOURS, null, HELD, NOW, BERLIN).until());
        assertEquals(Instant.parse("2026-12-03T08:00:00Z"), // 09:00 in Berlin
                KeepUntil.resolve(KeepUntil.Option.TOMORROW_MORNING, "ignored", HELD, NOW, BERLIN).until());
        assertEquals("as held (14:05)", KeepUntil.label(KeepUntil.Option.AS_HELD, HELD, NOW, BERLIN));
        assertEquals("4 h (15:40)", KeepUntil.label(KeepUntil.Option.FOUR_HOURS, HELD, NOW, BERLIN));
        assertEquals("tomorrow 09:00", KeepUntil.label(KeepUntil.Option.TOMORROW_MORNING, HELD, NOW, BERLIN));
    }

    @ParameterizedTest(name = "{0} → {1}")
    @CsvSource(delimiter = '|', value = {
            "90m              | 2026-12-02T12:10:00Z",
            "2h               | 2026-12-02T12:40:00Z",
            "1h30m            | 2026-12-02T12:10:00Z",
            "1 h 30 min       | 2026-12-02T12:10:00Z",
            "1d               | 2026-12-03T10:40:00Z",
            "17:30            | 2026-12-02T16:30:00Z",
            "2026-12-04 08:00 | 2026-12-04T07:00:00Z",
            " 45M             | 2026-12-02T11:25:00Z",
    })
    void customTextIsRead(String text, String expected) {
        KeepUntil.Chosen c = KeepUntil.resolve(KeepUntil.Option.CUSTOM, text, HELD, NOW, BERLIN);
        assertTrue(c.ok(), c.problem());
        assertEquals(Instant.parse(expected), c.until());
    }

    @ParameterizedTest(name = "{0} → {1}")
    @CsvSource(delimiter = '|', value = {
            "''               | type how long the pause lasts",
            "soon             | 'soon' is neither a duration (90m, 2h, 1d) nor a time",
            "25:00            | '25:00' is neither a duration",
            "0m               | '0m' ends now: a kept pause must end later",
            "09:15            | 09:15 today has passed",
            "2026-12-01 08:00 | is in the past: a kept pause must end later",
            "8d               | is more than 7 days away",
            "9999999h         | is neither a duration",
    })
    void customTextIsRefusedInWords(String text, String said) {
        KeepUntil.Chosen c = KeepUntil.resolve(KeepUntil.Option.CUSTOM, text, HELD, NOW, BERLIN);
        assertFalse(c.ok());
        assertNull(c.until());
        assertTrue(c.problem().contains(said), c.problem());
    }
}
