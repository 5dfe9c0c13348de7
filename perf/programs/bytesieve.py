# Sieve of Eratosthenes over a bytearray, repeated (same algorithm and output
# as bytesieve.b, whose flags are an array of byte).
import sys

LIMIT = 100000


def sieve(flags, n):
    for i in range(2, n + 1):
        flags[i] = 1
    count = 0
    for i in range(2, n + 1):
        if flags[i] != 0:
            count += 1
            for k in range(i + i, n + 1, i):
                flags[k] = 0
    return count


def main():
    reps = int(sys.argv[1]) if len(sys.argv) > 1 else 365  # default size
    flags = bytearray(LIMIT + 1)
    total = 0
    for _ in range(reps):
        total += sieve(flags, LIMIT)
    print("bytesieve %d: %d" % (reps, total))


main()
