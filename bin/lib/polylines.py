"""Douglas-Peucker and ring areas, for the scripts that make the maps' geography
(make-world-outline.py, make-geography.py)."""


def simplify(points, tolerance):
    """Douglas-Peucker on an open polyline; keeps both ends."""
    if len(points) < 3:
        return list(points)
    keep = [False] * len(points)
    keep[0] = keep[-1] = True
    stack = [(0, len(points) - 1)]
    while stack:
        first, last = stack.pop()
        (ax, ay), (bx, by) = points[first], points[last]
        dx, dy = bx - ax, by - ay
        length2 = dx * dx + dy * dy
        worst, worst_index = -1.0, None
        for i in range(first + 1, last):
            px, py = points[i]
            if length2 == 0:
                d2 = (px - ax) ** 2 + (py - ay) ** 2
            else:
                t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length2))
                d2 = (px - ax - t * dx) ** 2 + (py - ay - t * dy) ** 2
            if d2 > worst:
                worst, worst_index = d2, i
        if worst_index is not None and worst > tolerance * tolerance:
            keep[worst_index] = True
            stack.append((first, worst_index))
            stack.append((worst_index, last))
    return [p for p, k in zip(points, keep) if k]


def ring_area(points):
    return abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1]))) / 2


def without_repeats(points):
    """The points with each run of equal consecutive ones as one (points that quantize to one
    position are one point)."""
    kept = []
    for point in points:
        if not kept or point != kept[-1]:
            kept.append(point)
    return kept


def simplified_ring(ring, tolerance):
    """A closed ring (its last point may repeat its first) simplified as a loop: Douglas-Peucker
    from its first point round to it again, that repeat left out."""
    if len(ring) > 1 and ring[0] == ring[-1]:
        ring = ring[:-1]
    return simplify(ring + ring[:1], tolerance)[:-1]
