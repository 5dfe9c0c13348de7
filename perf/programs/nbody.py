# N-body (same algorithm, operation order and output as nbody.b).
import math
import sys

PI = 3.141592653589793
DAYSPERYEAR = 365.24
SOLARMASS = 4.0 * PI * PI


class Body:
    __slots__ = ("x", "y", "z", "vx", "vy", "vz", "mass")

    def __init__(self, x, y, z, vx, vy, vz, mass):
        self.x = x
        self.y = y
        self.z = z
        self.vx = vx * DAYSPERYEAR
        self.vy = vy * DAYSPERYEAR
        self.vz = vz * DAYSPERYEAR
        self.mass = mass * SOLARMASS


def advance(bodies, dt):
    sqrt = math.sqrt
    n = len(bodies)
    for i in range(n):
        bi = bodies[i]
        for j in range(i + 1, n):
            bj = bodies[j]
            dx = bi.x - bj.x
            dy = bi.y - bj.y
            dz = bi.z - bj.z
            d2 = dx * dx + dy * dy + dz * dz
            mag = dt / (d2 * sqrt(d2))
            bm = bj.mass * mag
            bi.vx -= dx * bm
            bi.vy -= dy * bm
            bi.vz -= dz * bm
            bm = bi.mass * mag
            bj.vx += dx * bm
            bj.vy += dy * bm
            bj.vz += dz * bm
    for i in range(n):
        b = bodies[i]
        b.x += dt * b.vx
        b.y += dt * b.vy
        b.z += dt * b.vz


def energy(bodies):
    e = 0.0
    n = len(bodies)
    for i in range(n):
        bi = bodies[i]
        e += 0.5 * bi.mass * (bi.vx * bi.vx + bi.vy * bi.vy + bi.vz * bi.vz)
        for j in range(i + 1, n):
            bj = bodies[j]
            dx = bi.x - bj.x
            dy = bi.y - bj.y
            dz = bi.z - bj.z
            e -= (bi.mass * bj.mass) / math.sqrt(dx * dx + dy * dy + dz * dz)
    return e


def offsetmomentum(bodies):
    px = py = pz = 0.0
    for b in bodies:
        px += b.vx * b.mass
        py += b.vy * b.mass
        pz += b.vz * b.mass
    sun = bodies[0]
    sun.vx = -px / SOLARMASS
    sun.vy = -py / SOLARMASS
    sun.vz = -pz / SOLARMASS


def main():
    steps = int(sys.argv[1]) if len(sys.argv) > 1 else 500000  # default size
    bodies = [
        # sun
        Body(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0),
        # jupiter
        Body(4.84143144246472090e+00, -1.16032004402742839e+00, -1.03622044471123109e-01,
             1.66007664274403694e-03, 7.69901118419740425e-03, -6.90460016972063023e-05,
             9.54791938424326609e-04),
        # saturn
        Body(8.34336671824457987e+00, 4.12479856412430479e+00, -4.03523417114321381e-01,
             -2.76742510726862411e-03, 4.99852801234917238e-03, 2.30417297573763929e-05,
             2.85885980666130812e-04),
        # uranus
        Body(1.28943695621391310e+01, -1.51111514016986312e+01, -2.23307578892655734e-01,
             2.96460137564761618e-03, 2.37847173959480950e-03, -2.96589568540237556e-05,
             4.36624404335156298e-05),
        # neptune
        Body(1.53796971148509165e+01, -2.59193146099879641e+01, 1.79258772950371181e-01,
             2.68067772490389322e-03, 1.62824170038242295e-03, -9.51592254519715870e-05,
             5.15138902046611451e-05),
    ]
    offsetmomentum(bodies)
    e0 = energy(bodies)
    for _ in range(steps):
        advance(bodies, 0.01)
    print("nbody %d: %.9f %.9f" % (steps, e0, energy(bodies)))


main()
