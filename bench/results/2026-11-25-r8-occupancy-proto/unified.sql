SELECT unified_book(nextval('tseq'));
