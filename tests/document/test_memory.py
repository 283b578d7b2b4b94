"""``DocumentMemory`` keeps the last few documents and no more: the language server's analyzer lives as long as
its session, so an unbounded memory would keep every version of every file ever opened."""

from __future__ import annotations

from toolcast.adapters.document import DocumentMemory, parse


def test_it_keeps_the_most_recent_documents_up_to_its_size() -> None:
    memory: DocumentMemory[object] = DocumentMemory(3)
    docs = [object() for _ in range(5)]
    for doc in docs:
        memory.remember(doc)
    assert len(memory) == 3
    assert memory.recent() == [docs[4], docs[3], docs[2]]


def test_remembering_a_document_again_makes_it_the_most_recent_without_a_copy() -> None:
    memory: DocumentMemory[object] = DocumentMemory(3)
    a, b, c = object(), object(), object()
    for doc in (a, b, c, a):
        memory.remember(doc)
    assert memory.recent() == [a, c, b]


def test_parse_remembers_into_a_bounded_memory() -> None:
    memory = DocumentMemory(2)
    for n in range(6):
        parse(f'[{{"name": "t{n}"}}]', memory=memory)
    assert len(memory) == 2
