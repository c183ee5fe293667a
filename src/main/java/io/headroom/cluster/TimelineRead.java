package io.headroom.cluster;

import java.util.List;

/**
 * What reading a cluster's Headroom events gave: the events (oldest first) and, in a sentence each,
 * what could not be read (a namespace whose events are forbidden, an unreachable API server).
 *
 * @param supported false when this cluster keeps no events at all (the sandbox)
 */
public record TimelineRead(List<TimelineEvent> events, List<String> problems, boolean supported) {
    public TimelineRead {
        events = List.copyOf(events);
        problems = List.copyOf(problems);
    }

    public static TimelineRead unsupported(String why) {
        return new TimelineRead(List.of(), List.of(why), false);
    }
}
