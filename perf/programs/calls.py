# A call-heavy loop (same algorithm and output as calls.b).
import sys


class Acc:
    __slots__ = ("n",)

    def __init__(self):
        self.n = 0

    def add(self, v):
        self.n = (self.n + v) % 1000003


def inc(x):
    return x + 1


def add3(a, b, c):
    return a + b + c


def mix(a, b):
    return (a * 31 + b) % 65536


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 13000000  # default size
    acc = Acc()
    s = 0
    for i in range(n):
        s = mix(s, add3(i, inc(i), 1))
        acc.add(s)
    print("calls %d: %d %d" % (n, s, acc.n))


main()
