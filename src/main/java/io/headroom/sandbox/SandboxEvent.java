package io.headroom.sandbox;

/** One scheduled happening; ties in time are broken by the order of scheduling. */
final class SandboxEvent implements Comparable<SandboxEvent> {
    final double time;
    final long seq;
    final int type;
    final SandboxWorld.ClassSim sim;
    final SandboxPod pod;
    final double service;
    final int poisonGeneration; // -1 for an ordinary job

    SandboxEvent(double time, long seq, int type, SandboxWorld.ClassSim sim, SandboxPod pod, double service, int poisonGeneration) {
        this.time = time;
        this.seq = seq;
        this.type = type;
        this.sim = sim;
        this.pod = pod;
        this.service = service;
        this.poisonGeneration = poisonGeneration;
    }

    @Override
    public int compareTo(SandboxEvent o) {
        int byTime = Double.compare(time, o.time);
        return byTime != 0 ? byTime : Long.compare(seq, o.seq);
    }
}
