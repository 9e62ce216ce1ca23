from calc.ops import add, mean


def test_add():
    assert add(2, 3) == 5


def test_mean_of_integers():
    assert mean([1, 2, 3, 4]) == 2.5


def test_mean_of_one():
    assert mean([7]) == 7
