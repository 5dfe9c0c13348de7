"""What the paper's figures and listings show, summarised (its graphs are not in
its repository, only their captions and the text around them). Numbers are
the paper's, measured in 1999 on a 150 MHz Pentium under a native Inferno
2.0/2.3 kernel; the wording is ours."""

FIGURES = {
    "fig1": {
        "title": "Figure 1 (BASE, /dev/busec, original kernel)",
        "summary": "1000 BASE observations in order. Most are small, but a few very large values "
                   "around 6-8 ms dominate the plot, and a second, more regular set sits near 1 ms.",
    },
    "fig2": {
        "title": "Figure 2 (the same, one outlier layer removed)",
        "summary": "With the largest values removed, most observations are below 500 µs and a "
                   "smaller group lies near 1 ms: still highly variable.",
    },
    "fig3": {
        "title": "Figure 3 (histogram)",
        "summary": "A few values above 7 ms, a tighter group near 1 ms; together well under 10% "
                   "of the observations.",
    },
    "fig4": {
        "title": "Figure 4 (histogram, one outlier layer removed)",
        "summary": "Even the lower cluster spreads from about 220 µs to about 500 µs; the author "
                   "concludes that this mechanism cannot give accurate or reliable measurements.",
    },
    "cost": {
        "title": "costing listing",
        "summary": "`cost -f bench.b -s bench` over 10000 loop iterations: the BASE summary is mean "
                   "486 µs, min 402 µs, max 9053 µs, std 499 µs. Most instructions cost 1-16 µs; the "
                   "`mcall` of `sys->read` in `tstamp()` has mean 133.81 µs, min 89.88 µs, max 8.61 ms "
                   "and std 514.44 µs over 2000 calls: the likely source of the large delays.",
    },
    "kprof": {
        "title": "kernel profile",
        "summary": "Over the timing loop (1460 ms of kernel samples), the collector's `markheap` "
                   "(8.9%) and `rungc` (6.1%) are the first and fourth largest entries: about 15% "
                   "together, surprisingly large for this loop.",
    },
    "explain": {
        "title": "An Explanation / Improving the Results",
        "summary": "Sys_read releases the interpreter around its kernel read. If a clock interrupt "
                   "lets another interpreter process take over and no Dis thread is ready, it runs idle "
                   "GC, which stops only for a ready thread or a process asking for the interpreter, so "
                   "the reader can wait up to three epochs or the next 10 ms tick. Calling sched() after "
                   "every idle rungc() step lets the reader get back in, and the 6 ms delays vanish.",
    },
    "fig5": {
        "title": "Figure 5 (GCSCHED: 1000 calls of rungc())",
        "summary": "Each call visits 50 heap blocks, followed by release/acquire. The times form a "
                   "very repeatable pattern and show nothing like the 6 ms delays.",
    },
    "fig6": {
        "title": "Figure 6 (the first 200 rungc() calls)",
        "summary": "The same repeating pattern in more detail.",
    },
    "fig7": {
        "title": "Figure 7 (GCIDLE: three epochs of idle GC)",
        "summary": "Idle collection of three epochs takes a considerable time even on a quiet system, "
                   "of the same order as the large timestamp delays; but since idle GC stops whenever "
                   "another thread needs the interpreter, this alone did not prove it the cause.",
    },
    "fig8": {
        "title": "Figure 8 (BASE after the idle-GC change)",
        "summary": "With idle GC calling sched() after every step, the large 6 ms delays are gone; "
                   "regular delays of about 1 ms remain.",
    },
    "fig9": {
        "title": "Figure 9 (the first 200 values after the change)",
        "summary": "The remaining delays follow a pattern much like that of repeated rungc() calls "
                   "(Figure 6): the collector step run after each scheduler quantum.",
    },
    "fig10": {
        "title": "Figure 10 (BASE with the builtin bench->microsec())",
        "summary": "Replacing the sys->read timestamp by a builtin, with GC still enabled, improves "
                   "the results significantly; only a few large values remain, put down to external "
                   "interrupts or quantum GC.",
    },
    "fig11": {
        "title": "Figure 11 (its distribution)",
        "summary": "All but 6 of the 1000 observations are exactly 6 µs.",
    },
    "fig12": {
        "title": "Figure 12 (builtin timestamp, GC disabled)",
        "summary": "Five values at 12 µs, one at 8 µs, the rest at 6 or 7 µs: slightly better, but "
                   "the author judges the gain too small to justify measuring with GC off.",
    },
}
