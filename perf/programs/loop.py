# A counted integer loop (same algorithm and output as loop.b).
import sys


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 125000000  # default size
    s = 0
    for i in range(n):
        s = (s * 31 + i) % 16777216
    print("loop %d: %d" % (n, s))


main()
