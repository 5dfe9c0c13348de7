# String building and int/string conversion (same algorithm and output as strings.b).
import sys


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 3800000  # default size
    total = 0
    line = ""
    for i in range(n):
        s = str(i * 7)
        total += int(s) + len(s)
        line += s + ","
        if len(line) > 64:
            total += ord(line[len(line) - 2])
            line = ""
    print("strings %d: %d %d" % (n, total, len(line)))


main()
