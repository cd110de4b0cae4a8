// Command twice prints p.Twice(21).
package main

import (
	"fmt"

	"example.com/judgemod/p"
)

func main() {
	fmt.Println(p.Twice(21))
}
