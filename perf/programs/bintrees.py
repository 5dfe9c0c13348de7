# Binary trees (same algorithm and output as bintrees.b).
import sys

MINDEPTH = 4


def bottomup(depth):
    if depth <= 0:
        return (None, None)
    return (bottomup(depth - 1), bottomup(depth - 1))


def check(t):
    left, right = t
    if left is None:
        return 1
    return 1 + check(left) + check(right)


def main():
    maxdepth = int(sys.argv[1]) if len(sys.argv) > 1 else 15  # default size
    if maxdepth < MINDEPTH + 2:
        maxdepth = MINDEPTH + 2
    total = check(bottomup(maxdepth + 1))
    longlived = bottomup(maxdepth)
    for depth in range(MINDEPTH, maxdepth + 1, 2):
        iters = 1
        for _ in range(maxdepth - depth + MINDEPTH):
            iters *= 2
        for _ in range(iters):
            total += check(bottomup(depth))
    total += check(longlived)
    print("bintrees %d: %d" % (maxdepth, total))


main()
