package kb

import (
	"errors"
	"testing"
)

func TestSelectionAllowed(t *testing.T) {
	for _, tc := range []struct {
		selected, hidden, want bool
	}{
		{false, false, true},
		{true, false, true},
		{true, true, true},
		{false, true, false},
	} {
		if got := SelectionAllowed(tc.selected, tc.hidden); got != tc.want {
			t.Errorf("SelectionAllowed(selected %v, hidden %v) = %v, want %v", tc.selected, tc.hidden, got, tc.want)
		}
	}
}

func TestCustomEmbargo(t *testing.T) {
	for _, tc := range []struct {
		name  string
		unit  string
		value int
		want  Embargo
		err   error
	}{
		{"none", "", 0, Embargo{}, nil},
		{"blank unit, no value", "  ", 0, Embargo{}, nil},
		{"six months", "Months", 6, Embargo{Unit: EmbargoMonths, Value: 6}, nil},
		{"unit in any case", " days ", 30, Embargo{Unit: EmbargoDays, Value: 30}, nil},
		{"a unit with no value is no embargo", "Weeks", 0, Embargo{}, nil},
		{"negative value", "Years", -1, Embargo{}, ErrEmbargoValue},
		{"negative value without a unit", "", -2, Embargo{}, ErrEmbargoValue},
		{"negative value before a bad unit", "Seconds", -1, Embargo{}, ErrEmbargoValue},
		{"unknown unit", "Seconds", 6, Embargo{}, ErrEmbargoUnit},
		{"unknown unit with no value", "Seconds", 0, Embargo{}, ErrEmbargoUnit},
		{"value without a unit", "", 6, Embargo{}, ErrEmbargoUnit},
		{"unit by number", "1", 6, Embargo{}, ErrEmbargoUnit},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := CustomEmbargo(tc.unit, tc.value)
			if got != tc.want || !errors.Is(err, tc.err) {
				t.Errorf("CustomEmbargo(%q, %d) = %+v, %v; want %+v, %v", tc.unit, tc.value, got, err, tc.want, tc.err)
			}
		})
	}
}
