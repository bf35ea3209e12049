/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * A temporary file with given text for input-reader tests; removed at destruction.
 */
#ifndef RDMA_TEST_TEMP_FILE_H
#define RDMA_TEST_TEMP_FILE_H

#include <cstdio>
#include <fstream>
#include <string>
#include <unistd.h>

namespace rdmatest
{

class TempFile
{
  public:
    explicit TempFile(const std::string& text)
    {
        char name[] = "/tmp/rdma-input-XXXXXX";
        const int fd = ::mkstemp(name);
        ::close(fd);
        m_path = name;
        std::ofstream(m_path) << text;
    }

    ~TempFile()
    {
        std::remove(m_path.c_str());
    }

    TempFile(const TempFile&) = delete;
    TempFile& operator=(const TempFile&) = delete;

    const std::string& Path() const
    {
        return m_path;
    }

  private:
    std::string m_path;
};

} // namespace rdmatest

#endif
