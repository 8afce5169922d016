"""`/search`, `/context/{chunk_id}` and `/document/{parent_doc_id}` over HTTP."""

import pytest

from tests.conftest import serving


@pytest.fixture(scope="module")
async def api(book):
    async with serving(book) as client:
        yield client


async def search(client, **body):  # type: ignore[no-untyped-def]
    response = await client.post("/search", json=body)
    assert response.status_code == 200, response.text
    return response.json()


async def test_search_returns_ranked_chunks_with_their_location(api):
    found = await search(api, text="QoS reliability retransmit lost messages", limit=3)
    assert found["total_found"] == len(found["results"]) == 3
    assert found["book_id"] == "test-book"
    top = found["results"][0]
    assert top["source_file"] == "01-ros2/01-nodes-and-topics.md"
    assert top["url"].endswith("#qos") and 0.0 <= top["score"] <= 1.0
    assert top["parent_doc_id"] and top["total_chunks"] >= 1


async def test_search_filters_hold_for_every_result(api):
    found = await search(api, text="robot simulation", module="gazebo", limit=20)
    assert found["results"] and found["module_filter"] == "gazebo"
    assert {r["module"] for r in found["results"]} == {"gazebo"}
    tiered = await search(api, text="GPU perception", hardware_tier=1, limit=20)
    assert all(r["hardware_tier"] <= 1 for r in tiered["results"])
    chapters = await search(api, text="robot", chapter_min=2, chapter_max=3, limit=20)
    assert {r["chapter"] for r in chapters["results"]} <= {2, 3}


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        ({"text": "ab"}, "text"),
        ({"text": "topics", "limit": 21}, "limit"),
        ({"text": "topics", "hardware_tier": 0}, "hardware_tier"),
        ({"text": "topics", "chapter_min": 3, "chapter_max": 1}, "chapter_min"),
        ({"text": "topics", "proficiency_levels": ["Z9"]}, "proficiency_levels"),
    ],
)
async def test_bad_search_is_a_422_naming_the_problem(api, body, problem):
    response = await api.post("/search", json=body)
    assert response.status_code == 422
    assert problem in response.json()["error"]["message"]


async def test_context_walks_the_prev_and_next_chain_in_reading_order(api):
    page = (await search(api, text="QoS reliability", limit=1))["results"][0]["parent_doc_id"]
    chunks = (await api.get(f"/document/{page}")).json()["chunks"]
    middle = chunks[len(chunks) // 2]
    around = await api.get(f"/context/{middle['chunk_id']}", params={"prev": 2, "next": 1})
    ids = [c["chunk_id"] for c in around.json()["chunks"]]
    position = [c["chunk_id"] for c in chunks].index(middle["chunk_id"])
    expected = [c["chunk_id"] for c in chunks[max(0, position - 2) : position + 2]]
    assert ids == expected


async def test_document_lists_every_chunk_of_the_page_in_order(api):
    page = (await search(api, text="QoS reliability", limit=1))["results"][0]["parent_doc_id"]
    chunks = (await api.get(f"/document/{page}")).json()["chunks"]
    assert [c["chunk_index"] for c in chunks] == list(range(len(chunks)))
    assert {c["parent_doc_id"] for c in chunks} == {page}
    assert all(c["total_chunks"] == len(chunks) for c in chunks)


@pytest.mark.parametrize(
    "path",
    [
        "/context/00000000-0000-4000-8000-000000000000",
        "/context/not-a-chunk-id",
        "/document/no-such-page",
    ],
)
async def test_unknown_chunk_or_page_is_a_404(api, path):
    response = await api.get(path)
    assert response.status_code == 404
    assert response.json()["error"]["code"] in {"unknown_chunk", "unknown_document"}
