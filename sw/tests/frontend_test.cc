// SPDX-License-Identifier: Apache-2.0
// The OpenCL C front end (being written).
#include <gtest/gtest.h>
