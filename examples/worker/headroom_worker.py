"""A queue worker that honours Headroom's drains.

Headroom marks a pod it is about to take out with the annotation ``headroom.io/drain`` (the drain's id).
Mount the pod's annotations with the downward API and give this module the file::

    volumes:
      - name: podinfo
        downwardAPI:
          items:
            - path: annotations
              fieldRef: {fieldPath: metadata.annotations}
    # in the container: volumeMounts: [{name: podinfo, mountPath: /etc/podinfo}]

The worker then:
- stops taking new jobs as soon as the mark appears (the kubelet rewrites the file within its sync period),
  and takes jobs again if the mark goes (a cancelled drain);
- on SIGTERM stops taking jobs and finishes those in flight within the grace period, then exits
  (0 when every job finished, 1 when the grace ran out with jobs still running);
- reports its in-flight count (``in_flight()``; ``status_file`` in Prometheus's text format for a
  textfile collector or a sidecar, as ``worker_jobs_in_flight`` with a ``draining`` gauge beside it).

Plain Python 3.8+, no dependencies: wire ``take`` and ``handle`` to RQ, Celery or your own queue.
"""

import json
import os
import signal
import sys
import threading
import time

DRAIN_ANNOTATION = "headroom.io/drain"


def read_annotations(path):
    """The downward API's annotations file: one ``key="value"`` per line (Go-quoted values)."""
    out = {}
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except FileNotFoundError:
        return out
    for line in text.splitlines():
        key, sep, value = line.partition("=")
        if not sep:
            continue
        value = value.strip()
        if value.startswith('"') and value.endswith('"'):
            try:
                value = json.loads(value)  # Go's %q is JSON-compatible for the characters annotations hold
            except ValueError:
                value = value[1:-1]
        out[key.strip()] = value
    return out


class DrainMark:
    """Whether Headroom has marked this pod for a drain, read from the annotations file each time."""

    def __init__(self, path, annotation=DRAIN_ANNOTATION):
        self.path = path
        self.annotation = annotation

    def drain_id(self):
        value = read_annotations(self.path).get(self.annotation)
        return value or None


class Worker:
    """Takes jobs with ``take(timeout)`` (None when there is none) and runs ``handle(job)`` on up to
    ``slots`` threads, unless marked for a drain or told to stop."""

    def __init__(self, take, handle, mark, slots=1, grace_seconds=30.0, poll_seconds=0.2, status_file=None):
        self.take = take
        self.handle = handle
        self.mark = mark
        self.slots = slots
        self.grace_seconds = grace_seconds
        self.poll_seconds = poll_seconds
        self.status_file = status_file
        self._lock = threading.Condition(threading.RLock())  # re-entered by the SIGTERM handler's report
        self._in_flight = 0
        self._finished = 0
        self._stopping = threading.Event()
        self._draining = False
        self._polls = 0

    def in_flight(self):
        with self._lock:
            return self._in_flight

    def stop(self, *_):
        """SIGTERM: take nothing more; ``run`` returns once the jobs in flight finish or the grace runs out."""
        self._stopping.set()
        self._report()

    def run(self):
        """Runs until stopped; returns 0 when every job taken finished, 1 when the grace ran out first."""
        while not self._stopping.is_set():
            self._draining = self.mark.drain_id() is not None
            self._polls += 1
            self._report()
            if self._draining or self.in_flight() >= self.slots:
                self._stopping.wait(self.poll_seconds)
                continue
            job = self.take(self.poll_seconds)
            if job is None:
                continue
            with self._lock:
                self._in_flight += 1
            self._report()
            threading.Thread(target=self._work, args=(job,), daemon=True).start()
        deadline = time.monotonic() + self.grace_seconds
        with self._lock:
            while self._in_flight > 0 and time.monotonic() < deadline:
                self._lock.wait(min(self.poll_seconds, max(0.0, deadline - time.monotonic())))
            left = self._in_flight
        self._report(stopped=True)
        return 0 if left == 0 else 1

    def _work(self, job):
        try:
            self.handle(job)
        finally:
            with self._lock:
                self._in_flight -= 1
                self._finished += 1
                self._lock.notify_all()
            self._report()

    def _report(self, stopped=False):
        if not self.status_file:
            return
        with self._lock:
            text = (
                "# TYPE worker_jobs_in_flight gauge\nworker_jobs_in_flight %d\n"
                "# TYPE worker_draining gauge\nworker_draining %d\n"
                "# TYPE worker_jobs_finished_total counter\nworker_jobs_finished_total %d\n"
                "# polls %d stopping %d stopped %d\n"
                % (self._in_flight, 1 if self._draining else 0, self._finished, self._polls,
                   1 if self._stopping.is_set() else 0, 1 if stopped else 0)
            )
            tmp = self.status_file + ".tmp"
            with open(tmp, "w", encoding="utf-8") as f:
                f.write(text)
            os.replace(tmp, self.status_file)


def _demo(argv):
    """``python3 headroom_worker.py JOBS_DIR ANNOTATIONS STATUS [GRACE]``: a worker whose queue is a
    directory (a job is a file, taken oldest name first by renaming it to ``*.taken``) and whose job
    runs until a file ``*.release`` appears beside it. The tests drive it; it shows the wiring."""
    jobs, annotations, status = argv[0], argv[1], argv[2]
    grace = float(argv[3]) if len(argv) > 3 else 30.0

    def take(timeout):
        names = sorted(n for n in os.listdir(jobs) if n.endswith(".job"))
        if not names:
            time.sleep(timeout)
            return None
        path = os.path.join(jobs, names[0])
        os.replace(path, path + ".taken")
        return path

    def handle(path):
        while not os.path.exists(path + ".release"):
            time.sleep(0.02)
        os.replace(path + ".taken", path + ".done")

    worker = Worker(take, handle, DrainMark(annotations), slots=2, grace_seconds=grace, poll_seconds=0.05,
                    status_file=status)
    signal.signal(signal.SIGTERM, worker.stop)
    return worker.run()


if __name__ == "__main__":
    sys.exit(_demo(sys.argv[1:]))
