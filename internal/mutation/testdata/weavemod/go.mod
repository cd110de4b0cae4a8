module example.com/weavemod

go 1.24
