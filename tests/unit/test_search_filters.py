"""Reader filters as every caller builds them: JSON with or without nulls, or keyword args."""

import pytest
from pydantic import ValidationError

from agent.retrieval.search import SearchFilters


def test_explicit_nulls_mean_no_filter():
    fields = SearchFilters.model_fields
    assert SearchFilters(**dict.fromkeys(fields)) == SearchFilters()
    assert SearchFilters.model_validate(dict.fromkeys(fields)) == SearchFilters()


@pytest.mark.parametrize(
    "given",
    [{"hardware_tier": 5}, {"hardware_tier": True}, {"module": "ros\x002"}, {"lesson": -1}],
)
def test_values_out_of_bounds_are_refused(given):
    with pytest.raises(ValidationError):
        SearchFilters.model_validate(given)


def test_the_schema_draws_no_null_type():
    assert '"null"' not in str(SearchFilters.model_json_schema()).replace("'", '"')
