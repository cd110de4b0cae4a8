module example.com/judgemod

go 1.22
