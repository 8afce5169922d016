"""The graph's LLM path: LangChain fake chat models, and a stub OpenAI-compatible server."""

from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_core.messages import AIMessage, HumanMessage

from agent.context import Context
from agent.graph import DEGRADED_NOTE, graph
from agent.prompts import CONDENSE_SYSTEM, refusal
from agent.resources import Resources, load_chat_model
from tests.fakes import CountingSearcher, ScriptedChatModel, stub_openai

TOP_K = 2
ALL_RELEVANT = "1, 2, 3, 4"
"""The grader's reply keeping every candidate it sees (the top 2 x top_k), in one call."""
QUESTION = "Which QoS policy makes DDS retransmit messages that were lost?"


def with_model(resources: Resources, model) -> Resources:  # type: ignore[no-untyped-def]
    return Resources(resources.settings, resources.searcher, model)


async def run(resources: Resources, question: str = QUESTION, stream: bool = False, **state):
    inputs = {"messages": [HumanMessage(question)], **state}
    config = {"configurable": {"resources": resources}}
    context = Context(top_k=TOP_K)
    if not stream:
        return await graph.ainvoke(inputs, config, context=context), []
    events, final = [], None
    async for mode, payload in graph.astream(
        inputs, config, context=context, stream_mode=["custom", "values"]
    ):
        if mode == "custom":
            events.append(payload)
        else:
            final = payload
    return final, events


async def test_grader_keeps_all_then_answer_keeps_valid_citations_and_drops_invented_ones(book):
    model = FakeListChatModel(
        responses=[ALL_RELEVANT, "Use RELIABLE delivery [1]. Best effort drops frames [7]."]
    )
    result, events = await run(with_model(book, model), stream=True)
    assert "[1]" in result["answer"] and "[7]" not in result["answer"]
    streamed = "".join(e["text"] for e in events if e["event"] == "token")
    assert "[7]" not in streamed and "RELIABLE" in streamed
    assert [s["n"] for s in result["sources"]] == [1]
    assert events[-1] == {"event": "sources", "sources": result["sources"]}


async def test_grader_saying_no_rewrites_once_then_refuses(book):
    model = FakeListChatModel(responses=["none"])
    result, _ = await run(with_model(book, model))
    assert result["answer"].startswith(refusal("the book"))
    assert result["rewrite_count"] == 1 and result["sources"] == []


async def test_rewrite_cap_is_configurable(book):
    model = FakeListChatModel(responses=["none"])
    result = await graph.ainvoke(
        {"messages": [HumanMessage(QUESTION)]},
        {"configurable": {"resources": with_model(book, model)}},
        context=Context(top_k=TOP_K, max_rewrites=0),
    )
    assert result["rewrite_count"] == 0 and result["refusal_reason"] == "not_found"


async def test_llm_failing_before_the_first_token_degrades_to_the_extractive_answer(book):
    model = FakeListChatModel(responses=[ALL_RELEVANT, "never shown"], error_on_chunk_number=0)
    result, _ = await run(with_model(book, model))
    assert result["answer"].startswith(DEGRADED_NOTE.strip())
    assert "RELIABLE" in result["answer"] and result["sources"]


async def test_llm_failing_in_its_first_step_runs_the_rest_of_the_turn_offline(book):
    model = ScriptedChatModel(down=True)
    history = [HumanMessage("What are QoS policies in DDS?"), AIMessage("Delivery rules.")]
    result = await graph.ainvoke(
        {"messages": [*history, HumanMessage("Which one retransmits lost messages?")]},
        {"configurable": {"resources": with_model(book, model)}},
        context=Context(top_k=TOP_K),
    )
    assert [call[0].text for call in model.calls] == [CONDENSE_SYSTEM]  # never asked again
    assert result["degraded"] and result["answer"].startswith(DEGRADED_NOTE.strip())
    assert "RELIABLE" in result["answer"] and result["sources"]


async def test_highlight_with_llm_uses_only_the_selection_and_never_searches(book):
    searcher = CountingSearcher(book.searcher.index, book.searcher.model, book.searcher.book_id)
    model = FakeListChatModel(responses=["The loop leaves one millisecond per cycle."])
    resources = Resources(book.settings, searcher, model)
    selection = "A loop at 1 kHz leaves one millisecond per cycle."
    result, _ = await run(resources, "How long is a cycle?", selected_text=selection)
    assert searcher.searches == 0
    assert result["answer"] == "The loop leaves one millisecond per cycle."
    assert result["source_context"] == selection


async def test_only_the_answer_streams_as_llm_messages(book):
    model = FakeListChatModel(responses=[ALL_RELEVANT, "Reliable [1]."])
    nodes = [
        metadata["langgraph_node"]
        async for _, metadata in graph.astream(
            {"messages": [HumanMessage(QUESTION)]},
            {"configurable": {"resources": with_model(book, model)}},
            context=Context(top_k=TOP_K),
            stream_mode="messages",
        )
    ]
    assert nodes and set(nodes) == {"answer"}


async def test_openai_client_against_a_stub_server_streams_a_cited_answer(book):
    chunks = ["Set reliability to ", "RELIABLE", " so DDS retransmits", " [1]", "."]
    with stub_openai(verdict="2, 1", answer_chunks=chunks) as server:
        settings = book.settings.model_copy(
            update={
                "llm_model": "openai:gpt-4o-mini",
                "openai_base_url": server.base_url,
                "openai_api_key": "test-key",
            }
        )
        model = load_chat_model(settings)
        result, events = await run(with_model(book, model), stream=True)
    tokens = [e["text"] for e in events if e["event"] == "token"]
    assert len(tokens) >= 3
    assert result["answer"] == "Set reliability to RELIABLE so DDS retransmits [1]."
    assert result["sources"][0]["heading"] == "Quality of Service"
    streamed = [r for r in server.requests if r.get("stream")]
    assert len(streamed) == 1 and len(server.requests) == 2  # one grading call, one answer
    assert "Quality of Service" in streamed[0]["messages"][0]["content"]


async def test_llm_reranker_reorders_the_top_candidates(book):
    from agent.graph import query_graph

    inputs = {"messages": [HumanMessage(QUESTION)]}
    heuristic = await query_graph.ainvoke(
        inputs, {"configurable": {"resources": book}}, context=Context(top_k=TOP_K)
    )
    model = FakeListChatModel(responses=["2, 1"])
    listwise = await query_graph.ainvoke(
        inputs,
        {"configurable": {"resources": with_model(book, model)}},
        context=Context(top_k=TOP_K, reranker="llm"),
    )
    before = [c["id"] for c in heuristic["candidates"]]
    after = [c["id"] for c in listwise["candidates"]]
    assert after[:2] == [before[1], before[0]] and after[2:] == before[2:]


async def test_llm_decomposer_searches_every_part_the_model_names(book):
    from agent.graph import query_graph

    parts = ["Which QoS policy retransmits lost messages?", "What does a launch file start?"]
    model = FakeListChatModel(responses=[f"1. {parts[0]}\n2. {parts[1]}"])
    state = await query_graph.ainvoke(
        {"messages": [HumanMessage(QUESTION)]},
        {"configurable": {"resources": with_model(book, model)}},
        context=Context(top_k=TOP_K, decomposer="llm"),
    )
    assert state["question_parts"] == parts
    # the question and each part were searched: one similarity per query text
    assert {len(c["dense_scores"]) for c in state["candidates"]} == {3}


async def test_llm_decomposer_that_fails_splits_by_the_rules(book):
    from agent.graph import query_graph

    question = "What is the difference between a topic and a service?"
    state = await query_graph.ainvoke(
        {"messages": [HumanMessage(question)]},
        {"configurable": {"resources": with_model(book, ScriptedChatModel(down=True))}},
        context=Context(top_k=TOP_K, decomposer="llm"),
    )
    assert state["question_parts"] == ["topic", "service"]
    assert state["degraded"] is True
