/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_COMPACT_DEQUE_H
#define RDMA_COMPACT_DEQUE_H

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <utility>

namespace ns3
{

/**
 * \ingroup rdma
 * A double-ended queue as a ring buffer that allocates nothing until its first element:
 * 24 bytes when empty (std::deque: 80 bytes plus about 576 bytes of heap even
 * when empty). Capacity grows by doubling (a power of two) and is kept when elements are
 * removed. Supports the operations the QPs use: push_back, pop_front, pop_back, front,
 * back, operator[], resize, clear and forward iteration, oldest first.
 *
 * Per QP, the messages in flight and the loss-recovery bitmaps (SACK, placed packets)
 * are held in these, so a QP that never sees a loss never allocates its bitmaps.
 */
template <typename T>
class CompactDeque
{
  public:
    CompactDeque() = default;

    ~CompactDeque()
    {
        clear();
    }

    CompactDeque(const CompactDeque& other)
    {
        *this = other;
    }

    CompactDeque& operator=(const CompactDeque& other)
    {
        if (this != &other)
        {
            clear();
            Reserve(other.m_size);
            for (uint32_t i = 0; i < other.m_size; ++i)
            {
                push_back(other[i]);
            }
        }
        return *this;
    }

    CompactDeque(CompactDeque&& other) noexcept
        : m_buf(other.m_buf),
          m_head(other.m_head),
          m_size(other.m_size),
          m_capacity(other.m_capacity)
    {
        other.m_buf = nullptr;
        other.m_head = other.m_size = other.m_capacity = 0;
    }

    CompactDeque& operator=(CompactDeque&& other) noexcept
    {
        if (this != &other)
        {
            clear();
            m_buf = other.m_buf;
            m_head = other.m_head;
            m_size = other.m_size;
            m_capacity = other.m_capacity;
            other.m_buf = nullptr;
            other.m_head = other.m_size = other.m_capacity = 0;
        }
        return *this;
    }

    bool empty() const
    {
        return m_size == 0;
    }

    size_t size() const
    {
        return m_size;
    }

    /// Elements it can hold without allocating (0 until the first one).
    size_t capacity() const
    {
        return m_capacity;
    }

    T& operator[](size_t i)
    {
        return m_buf[(m_head + i) & (m_capacity - 1)];
    }

    const T& operator[](size_t i) const
    {
        return m_buf[(m_head + i) & (m_capacity - 1)];
    }

    T& front()
    {
        return (*this)[0];
    }

    const T& front() const
    {
        return (*this)[0];
    }

    T& back()
    {
        return (*this)[m_size - 1];
    }

    const T& back() const
    {
        return (*this)[m_size - 1];
    }

    /// Where the next push_back will write, if the buffer does not grow first (null
    /// before the first push): for a prefetch, changes nothing.
    const T* NextSlotHint() const
    {
        return m_capacity == 0 ? nullptr : FreeSlot();
    }

    // Slots hold an element only between its push and its pop (constructed in place,
    // destroyed at once): a push writes its slot without reading it first, so a cold
    // slot costs no cache miss.

    void push_back(const T& value)
    {
        new (Slot()) T(value);
        ++m_size;
    }

    void push_back(T&& value)
    {
        new (Slot()) T(std::move(value));
        ++m_size;
    }

    /// Remove the first element and return it.
    T take_front()
    {
        T v;
        std::swap(v, front()); // the slot keeps the empty value, so its release is trivial
        pop_front();
        return v;
    }

    void pop_front()
    {
        front().~T();
        m_head = (m_head + 1) & (m_capacity - 1);
        --m_size;
    }

    void pop_back()
    {
        back().~T();
        --m_size;
    }

    /// Grow to \p n elements, the new ones equal to \p value (never shrinks).
    void resize(size_t n, const T& value = T())
    {
        Reserve(n);
        while (m_size < n)
        {
            push_back(value);
        }
    }

    /// Remove every element (the storage is released).
    void clear()
    {
        for (uint32_t i = 0; i < m_size; ++i)
        {
            (*this)[i].~T();
        }
        std::allocator<T>().deallocate(m_buf, m_capacity);
        m_buf = nullptr;
        m_head = m_size = m_capacity = 0;
    }

    /// Forward iterator, oldest element first.
    template <typename Q, typename V>
    class Iter
    {
      public:
        Iter(Q* q, size_t i)
            : m_q(q),
              m_i(i)
        {
        }

        V& operator*() const
        {
            return (*m_q)[m_i];
        }

        V* operator->() const
        {
            return &(*m_q)[m_i];
        }

        Iter& operator++()
        {
            ++m_i;
            return *this;
        }

        bool operator==(const Iter& o) const
        {
            return m_i == o.m_i;
        }

        bool operator!=(const Iter& o) const
        {
            return m_i != o.m_i;
        }

      private:
        Q* m_q;
        size_t m_i;
    };

    using iterator = Iter<CompactDeque, T>;
    using const_iterator = Iter<const CompactDeque, const T>;

    iterator begin()
    {
        return iterator(this, 0);
    }

    iterator end()
    {
        return iterator(this, m_size);
    }

    const_iterator begin() const
    {
        return const_iterator(this, 0);
    }

    const_iterator end() const
    {
        return const_iterator(this, m_size);
    }

  private:
    /// Make room for at least \p n elements (a power of two), oldest first at index 0.
    void Reserve(size_t n)
    {
        if (n <= m_capacity)
        {
            return;
        }
        size_t cap = m_capacity == 0 ? 1 : m_capacity;
        while (cap < n)
        {
            cap *= 2;
        }
        T* buf = std::allocator<T>().allocate(cap);
        for (uint32_t i = 0; i < m_size; ++i)
        {
            T& old = (*this)[i];
            new (buf + i) T(std::move(old));
            old.~T();
        }
        std::allocator<T>().deallocate(m_buf, m_capacity);
        m_buf = buf;
        m_head = 0;
        m_capacity = static_cast<uint32_t>(cap);
    }

    /// The free slot after the last element (growing first if there is none).
    T* Slot()
    {
        if (m_size == m_capacity)
        {
            Reserve(m_capacity == 0 ? 1 : 2 * size_t(m_capacity));
        }
        return FreeSlot();
    }

    /// The slot after the last element, as the buffer is now (capacity > 0; the first
    /// element's slot if the buffer is full).
    T* FreeSlot() const
    {
        return &m_buf[(m_head + m_size) & (m_capacity - 1)];
    }

    T* m_buf = nullptr;
    uint32_t m_head = 0;
    uint32_t m_size = 0;
    uint32_t m_capacity = 0;
};

} // namespace ns3

#endif /* RDMA_COMPACT_DEQUE_H */
