"""`bookrag serve` serves a built book site at `/`, beside the API, when there is one."""

from agent.resources import build_resources
from tests.conftest import serving


async def test_a_built_site_is_served_at_the_root_and_the_api_still_answers(book, tmp_path):
    site = tmp_path / "build"
    (site / "docs" / "ros2").mkdir(parents=True)
    (site / "index.html").write_text("<h1>The book</h1>")
    (site / "docs" / "ros2" / "index.html").write_text("<h1 id='qos'>QoS</h1>")
    async with serving(book, site_build_dir=site) as client:
        home = await client.get("/")
        page = await client.get("/docs/ros2/")
        health = await client.get("/health")
        query = await client.post("/query", json={"question": "What does reliability do?"})
    assert home.status_code == 200 and "The book" in home.text
    assert page.status_code == 200 and "id='qos'" in page.text
    assert health.json() == {"status": "ok"}
    assert query.status_code == 200 and query.json()["answer"]


async def test_without_a_built_site_the_root_is_not_found(book, tmp_path):
    async with serving(book, site_build_dir=tmp_path / "nothing") as client:
        assert (await client.get("/")).status_code == 404


async def test_an_empty_index_says_to_ingest_instead_of_refusing(book, tmp_path):
    empty = book.settings.model_copy(
        update={"book_id": "never-ingested", "data_dir": tmp_path / "data"}
    )
    async with serving(build_resources(empty)) as client:
        ready = await client.get("/ready")
        query = await client.post("/query", json={"question": "What is a ROS 2 topic?"})
        chat = await client.post(
            "/chat/stream",
            json={"input": {"question": "What is a topic?"}},
            headers={"origin": empty.site_url},
        )
        selection = await client.post(
            "/highlight_query",
            json={"question": "What is it?", "selected_text": "A topic is a named bus."},
        )
    assert (
        ready.status_code == 503 and "bookrag ingest" in ready.json()["parts"]["qdrant"]["detail"]
    )
    for response in (query, chat):
        assert response.status_code == 503, response.text
        assert response.json()["error"]["code"] == "not_ingested"
        assert "bookrag ingest" in response.json()["error"]["message"]
        assert response.headers["retry-after"]
    assert chat.headers["access-control-allow-origin"] == empty.site_url  # the widget can read it
    assert selection.status_code == 200  # a selection needs no index
