def add(a, b):
    return a + b


def mean(values):
    # Bug the demo agent fixes: integer division truncates the mean.
    return sum(values) // len(values)
