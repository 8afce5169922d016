"""Property-based requests from the OpenAPI schema (schemathesis): no input makes a 500."""

import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance

from tests.conftest import running_server

EXAMPLES_PER_OPERATION = 25


def test_no_request_the_schema_allows_or_forbids_makes_a_server_error(book):
    failures: dict[str, str] = {}
    with running_server(book) as base_url:
        schema = schemathesis.openapi.from_url(f"{base_url}/openapi.json")
        operations = [result.ok() for result in schema.get_all_operations()]
        for operation in operations:

            @given(case=operation.as_strategy())
            @settings(
                max_examples=EXAMPLES_PER_OPERATION,
                deadline=None,
                database=None,
                suppress_health_check=list(HealthCheck),
            )
            def check(case):  # type: ignore[no-untyped-def]
                case.call_and_validate(checks=[not_a_server_error, response_schema_conformance])

            try:
                check()
            except Exception as error:  # collect every operation's failure, then report all
                failures[operation.label] = str(error)[:2000]
    assert len(operations) >= 12
    assert {"POST /chat/invoke", "POST /chat/stream"} <= {op.label for op in operations}
    assert not failures, "\n\n".join(f"{label}:\n{text}" for label, text in failures.items())
