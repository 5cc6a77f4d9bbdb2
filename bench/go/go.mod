module weft.dev/bench/gopeer

go 1.22
