"""Guideline retrieval (RAG): NXML guidelines -> section chunks -> embeddings in pgvector -> search.

download.py fetches WHO books from the NCBI Bookshelf, nxml.py reads them safely into section
trees, chunking.py cuts the trees into chunks, embedders.py turns text into vectors, store.py
keeps them in PostgreSQL, retriever.py answers "condition + findings", rag.py uses it at
decision time.
"""
