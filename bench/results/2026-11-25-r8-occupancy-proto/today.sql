SELECT today_book(nextval('tseq'));
