// Package report writes conform's reports: a generic JUnit XML model and a
// Markdown table writer shared by check-log, the runner and the fuzzer, a
// terminal check for progress output, and the runner's text, JSON, JUnit
// and Markdown reports, report diffs and baseline files.
package report
